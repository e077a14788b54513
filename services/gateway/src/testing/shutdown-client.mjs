// The client process of the gateway's shutdown test (src/routes/shutdown.test.ts). Told over IPC,
// it sends a wave of quote requests and visit beacons, alternately, on its keep-alive connections
// (reused once open) or each on a fresh one, and reports for each request when it was written out
// and how it ended. A process of its own, so it goes on connecting and writing while the test's
// process, the gateway's, is held busy as a loaded host holds it.
import http from "node:http";

const base = new URL(process.argv[2]);
const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 20 });
let sent = 0;

function send(kind, agent) {
  const id = sent++;
  const body =
    kind === "quote"
      ? JSON.stringify({ request: id })
      : JSON.stringify({ sessionId: `session-shutdown${id}-1700000000000`, page: "/" });
  return new Promise((resolve) => {
    const result = { id, kind, writtenAt: undefined, reused: false };
    const req = http.request({
      host: base.hostname,
      port: base.port,
      method: "POST",
      path: kind === "quote" ? "/api/lease-requests" : "/api/track/visit",
      agent,
      headers: {
        origin: base.origin,
        "content-type": "application/json",
        "content-length": Buffer.byteLength(body),
      },
    });
    req.on("socket", () => (result.reused = req.reusedSocket));
    req.on("finish", () => (result.writtenAt = Date.now()));
    req.on("response", (res) => {
      res.resume();
      res.on("end", () => resolve({ ...result, status: res.statusCode, connection: res.headers.connection }));
    });
    req.on("error", (err) => resolve({ ...result, error: err.code ?? err.message }));
    req.end(body);
  });
}

process.on("message", async ({ wave, parts }) => {
  const requests = parts.flatMap(({ connections, count }) => {
    const agent = connections === "keep-alive" ? keepAlive : new http.Agent({ keepAlive: false });
    return Array.from({ length: count }, (_, i) => send(i % 2 === 0 ? "quote" : "beacon", agent));
  });
  process.send({ wave, results: await Promise.all(requests) });
});
