import { describe, expect, it } from "vitest";
import { JSON_MAX_DEPTH, inspectJson, parseJsonText } from "./body";
import { HttpError } from "./errors";

// The JSON body checks every service (and the tracking batch route) runs on what a client sent.

const arrays = (depth: number, inner = "1") => "[".repeat(depth) + inner + "]".repeat(depth);
const objects = (depth: number, inner = "1") => '{"a":'.repeat(depth) + inner + "}".repeat(depth);

function refusal(raw: string): { status: number; code: string; message: string } | undefined {
  try {
    parseJsonText(raw);
    return undefined;
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
    return { status: err.status, code: err.code, message: err.message };
  }
}

describe("parseJsonText", () => {
  it("refuses nesting deeper than 64 levels with a 400 and a Dutch message", () => {
    for (const raw of [arrays(65), objects(65), `{"list":${arrays(64)}}`]) {
      expect(refusal(raw)).toEqual({
        status: 400,
        code: "too_deep",
        message: "De gegevens zijn te diep genest (maximaal 64 niveaus); stuur een eenvoudiger opbouw",
      });
    }
    expect(JSON_MAX_DEPTH).toBe(64);
  });

  it("accepts 64 levels, and brackets inside strings do not count as nesting", () => {
    expect(refusal(arrays(64))).toBeUndefined();
    expect(refusal(objects(64))).toBeUndefined();
    expect(parseJsonText(JSON.stringify({ note: "[".repeat(500) + '\\"{' }))).toEqual({
      note: "[".repeat(500) + '\\"{',
    });
  });

  it("answers 2,500 and 100,000 levels holding a NUL with a 400, not a stack overflow", () => {
    for (const depth of [2_500, 100_000]) {
      expect(refusal(arrays(depth, '"\\u0000"'))?.status).toBe(400);
      expect(refusal(objects(depth, '"x\\u0000"'))?.code).toBe("too_deep");
    }
  });

  it("still finds a NUL at the deepest allowed level, in a value or a key", () => {
    expect(refusal(arrays(63, '"a\\u0000"'))?.code).toBe("invalid_character");
    expect(refusal(objects(62, '{"k\\u0000":1}'))?.code).toBe("invalid_character");
  });
});

describe("inspectJson", () => {
  it("counts the top level as 1 and only objects and arrays as levels", () => {
    expect(inspectJson([[["x"]]], 3, false)).toBeUndefined();
    expect(inspectJson([[[[]]]], 3, false)).toBe("too_deep");
    expect(inspectJson({ a: { b: "[[[[[[" } }, 2, false)).toBeUndefined();
    expect(inspectJson("plain", 0, false)).toBeUndefined();
  });

  it("looks for a NUL only when asked, in values and keys", () => {
    expect(inspectJson({ a: ["x\0"] }, 64, false)).toBeUndefined();
    expect(inspectJson({ a: ["x\0"] }, 64, true)).toBe("nul");
    expect(inspectJson({ "k\0": 1 }, 64, true)).toBe("nul");
    expect(inspectJson(JSON.parse('{"__proto__":{"a":"x\\u0000"}}'), 64, true)).toBe("nul");
  });

  it("walks a million levels without a stack overflow", () => {
    let value: unknown = "end";
    for (let i = 0; i < 1_000_000; i++) value = [value];
    expect(inspectJson(value, 2_000_000, true)).toBeUndefined();
  });
});
