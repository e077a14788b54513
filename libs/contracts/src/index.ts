export * from "./entities";
export * from "./http";
export * from "./jobs";
export * from "./events";
export * from "./ws";
export * from "./routes";
export * from "./openapi";
export * from "./csv";
