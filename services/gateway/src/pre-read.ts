import type { IncomingMessage } from "node:http";

// A body the beacon path read before handing its request over to Koa (the proxy sends it on).
const preReadBodies = new WeakMap<IncomingMessage, Buffer>();

export function keepPreReadBody(req: IncomingMessage, body: Buffer): void {
  preReadBodies.set(req, body);
}

/** The body read ahead for this request, if any (once). */
export function takePreReadBody(req: IncomingMessage): Buffer | undefined {
  const body = preReadBodies.get(req);
  if (body) preReadBodies.delete(req);
  return body;
}
