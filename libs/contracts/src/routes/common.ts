import { LeaseRequestIdParam } from "../http/lease-requests";

// Parts several route tables share.

/** The answer of a route that answers nothing. */
export const noContent = { 204: { description: "Done; no body" } };

/** A lease request's (or contact message's, or admin's) id in the path. */
export const idParams = { params: LeaseRequestIdParam };
