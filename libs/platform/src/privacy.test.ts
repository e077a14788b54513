import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { QUEUES } from "@lease/contracts";
import { createLogger } from "./logger";
import { addressRegExp, redactMentions } from "./privacy";
import { createQueueClient, removeJobsHolding, type QueueClient } from "./queue";
import { closeRedis, createRedis } from "./redis";
import { baseRedisUrl, createTestDatabase, testRedisPrefix, type TestDatabase } from "./testing";

// Erasing a person replaces their address where other rows mention it, and removes the queue jobs
// that hold it; a longer address that contains theirs is another person's and is never touched.
// Each case runs through PostgreSQL (the redaction) and JavaScript (the job removal) alike.

const ERIN = "erin-sec@example.test";

/** Text that names Erin: each must come out with "[gewist]" where the address was. */
const NAMES_ERIN: [text: string, redacted: string][] = [
  [`Ik ben ${ERIN}`, "Ik ben [gewist]"],
  [`Mail ${ERIN}.`, "Mail [gewist]."],
  [`Mail ${ERIN}. Dank u.`, "Mail [gewist]. Dank u."],
  [`Mail ${ERIN}...`, "Mail [gewist]..."],
  [`Mail ${ERIN.toUpperCase()}, graag.`, "Mail [gewist], graag."],
  [`Erin-Sec@Example.Test`, "[gewist]"],
  [`(${ERIN})`, "([gewist])"],
  [`<${ERIN}>`, "<[gewist]>"],
  [`"${ERIN}"`, '"[gewist]"'],
  [`'${ERIN}'`, "'[gewist]'"],
  [`mailto:${ERIN}`, "mailto:[gewist]"],
  [`Kan ${ERIN}?`, "Kan [gewist]?"],
  [`Echt ${ERIN}!`, "Echt [gewist]!"],
  [`${ERIN};${ERIN},${ERIN}`, "[gewist];[gewist],[gewist]"],
  [`${ERIN}&#39;s`, "[gewist]&#39;s"],
  [`E-mail: ${ERIN}\nTelefoon`, "E-mail: [gewist]\nTelefoon"],
  [`Hoi\n${ERIN}`, "Hoi\n[gewist]"],
  [`${ERIN}/bob@x.nl`, "[gewist]/bob@x.nl"],
];

/** Text that names another address, one that holds Erin's: each must stay exactly as it is. */
const NAMES_SOMEONE_ELSE = [
  `Ik ben ${ERIN}.nl`,
  `E-mail: ${ERIN}.nl`,
  `Ik ben ${ERIN.toUpperCase()}.NL.`,
  `${ERIN}.Nl`,
  `${ERIN}-nl`,
  `${ERIN}_nl`,
  `${ERIN}+1`,
  `${ERIN}2`,
  `${ERIN}.2`,
  `${ERIN}.-x`,
  `${ERIN}~x`,
  `${ERIN}=x`,
  `bob.${ERIN}`,
  `jim${ERIN}`,
  `X${ERIN.toUpperCase()}`,
  `1${ERIN}`,
  `+${ERIN}`,
  `_${ERIN}`,
  `-${ERIN}`,
  `a.b-${ERIN}.nl`,
];

let db: TestDatabase;
let pool: pg.Pool;

beforeAll(async () => {
  db = await createTestDatabase("mentions");
  pool = new pg.Pool({ connectionString: db.url, max: 2 });
  await pool.query("CREATE TABLE notes (id serial PRIMARY KEY, body text)");
});

afterAll(async () => {
  await pool?.end();
  await db?.drop();
});

describe("an address in free text", () => {
  it("is replaced wherever it is the whole address, in PostgreSQL and in JavaScript", async () => {
    await pool.query("TRUNCATE notes");
    for (const [text] of NAMES_ERIN) await pool.query("INSERT INTO notes (body) VALUES ($1)", [text]);
    const changed = await redactMentions(pool, ERIN, [["notes", "body"]]);
    expect(changed).toBe(NAMES_ERIN.length);
    const rows = await pool.query<{ body: string }>("SELECT body FROM notes ORDER BY id");
    expect(rows.rows.map((r) => r.body)).toEqual(NAMES_ERIN.map(([, redacted]) => redacted));
    for (const [text, redacted] of NAMES_ERIN) {
      expect(addressRegExp(ERIN).test(text), text).toBe(true);
      expect(text.replace(addressRegExp(ERIN, "gi"), "[gewist]")).toBe(redacted);
    }
  });

  it("is left alone when it is part of a longer address, in PostgreSQL and in JavaScript", async () => {
    await pool.query("TRUNCATE notes");
    for (const text of NAMES_SOMEONE_ELSE) await pool.query("INSERT INTO notes (body) VALUES ($1)", [text]);
    expect(await redactMentions(pool, ERIN, [["notes", "body"]])).toBe(0);
    const rows = await pool.query<{ body: string }>("SELECT body FROM notes ORDER BY id");
    expect(rows.rows.map((r) => r.body)).toEqual(NAMES_SOMEONE_ELSE);
    for (const text of NAMES_SOMEONE_ELSE) expect(addressRegExp(ERIN).test(text), text).toBe(false);
  });

  it("takes the characters of an address literally, not as a pattern", async () => {
    await pool.query("TRUNCATE notes");
    const odd = "a+b.c$d@x-y.nl";
    await pool.query("INSERT INTO notes (body) VALUES ($1), ($2), ($3)", [
      `Van ${odd}.`,
      "Van aab.cxd@x-y.nl.",
      "Van a+b.c$d@x-yynl.",
    ]);
    expect(await redactMentions(pool, odd, [["notes", "body"]])).toBe(1);
    const rows = await pool.query<{ body: string }>("SELECT body FROM notes ORDER BY id");
    expect(rows.rows.map((r) => r.body)).toEqual([
      "Van [gewist].",
      "Van aab.cxd@x-y.nl.",
      "Van a+b.c$d@x-yynl.",
    ]);
  });
});

describe("queue jobs that hold an address", () => {
  const prefix = testRedisPrefix("scrub");
  const log = createLogger("test", "silent");
  let bull: ReturnType<typeof createRedis>;
  let queue: QueueClient;

  beforeAll(() => {
    bull = createRedis(baseRedisUrl(), "bullmq", log);
    queue = createQueueClient(bull, prefix);
  });

  afterAll(async () => {
    await queue.raw(QUEUES.mail).obliterate({ force: true });
    await queue.close();
    await closeRedis(bull);
  });

  it("removes the jobs of the address and keeps those of a longer one that holds it", async () => {
    const q = queue.raw(QUEUES.mail);
    const add = (id: string, data: object) => q.add("mail.send", data, { delay: 3_600_000, jobId: id });
    await add("erins", { to: ERIN, text: "Beste klant" });
    await add("erins-upper", { to: ERIN.toUpperCase() });
    // After a line break: in the job's JSON an "n" stands before the address.
    await add("mentions-erin", { text: `Groet,\n${ERIN}` });
    await add("sentence", { text: `Zij schreef ${ERIN}.` });
    await add("erin-nl", { to: `${ERIN}.nl`, text: `Ik ben ${ERIN}.nl` });
    await add("erin-dash", { to: `${ERIN}-nl` });
    await add("erin-plus", { text: `${ERIN}+x en ${ERIN}_x en ${ERIN}9` });
    await add("bob-erin", { to: `bob.${ERIN}` });

    expect(await removeJobsHolding(queue, QUEUES.mail, [ERIN])).toBe(4);
    const left = (await q.getJobs(["delayed"])).map((j) => j.id).sort();
    expect(left).toEqual(["bob-erin", "erin-dash", "erin-nl", "erin-plus"]);
  });
});
