import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { Redis } from "ioredis";
import { CHANNELS, ServerWsMessage, type MailOutcomeMessage } from "@lease/contracts";
import { keyspace } from "@lease/platform";
import { startHarness, type Harness } from "../testing";

// The mailer publishes each provider answer for an e-mail the admin sent; tracking relays it on
// the admin socket it already serves, so the compose window and sent mail update without polling.

let h: Harness;
let redis: Redis;
beforeAll(async () => {
  h = await startHarness();
  redis = new Redis(h.env.REDIS_URL!);
});
afterAll(async () => {
  redis?.disconnect();
  await h?.close();
});

async function adminSocket(): Promise<{ ws: WebSocket; messages: ServerWsMessage[] }> {
  const host = new URL(h.svc.url).host;
  const ws = new WebSocket(`${h.svc.url.replace("http", "ws")}/ws`, {
    headers: { origin: `http://${host}`, cookie: await h.adminCookie() },
  });
  const messages: ServerWsMessage[] = [];
  ws.on("message", (raw) => messages.push(ServerWsMessage.parse(JSON.parse(String(raw)))));
  await new Promise((resolve, reject) => {
    ws.once("open", resolve);
    ws.once("error", reject);
  });
  return { ws, messages };
}

const channel = () => keyspace(h.env.REDIS_PREFIX!)("events", CHANNELS.mailOutcome);

describe("mail outcomes on /ws", () => {
  it("relays a mail-outcome event to every admin socket as a typed message", async () => {
    const [one, two] = [await adminSocket(), await adminSocket()];
    try {
      const event = {
        emailId: randomUUID(),
        status: "failed",
        reason: "SendGrid weigerde de e-mail (400).",
        at: new Date().toISOString(),
      };
      await redis.publish(channel(), "not json");
      await redis.publish(channel(), JSON.stringify({ ...event, status: "lost" }));
      await redis.publish(channel(), JSON.stringify(event));
      for (const socket of [one, two]) {
        await expect
          .poll(() => socket.messages.filter((m): m is MailOutcomeMessage => m.type === "mail-outcome"))
          .toEqual([{ type: "mail-outcome", data: event }]);
      }
    } finally {
      one.ws.close();
      two.ws.close();
    }
  });
});
