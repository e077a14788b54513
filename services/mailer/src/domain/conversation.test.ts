import { describe, expect, it } from "vitest";
import { leadMailHeaders } from "./conversation";

const OUT = "7d3f0b8e-8c1a-4c5e-9a51-2f9b3c4d5e6f";

describe("an answer's threading headers", () => {
  it("name the reply it answers: In-Reply-To its Message-ID, References its References then its Message-ID", () => {
    const h = leadMailHeaders(OUT, "abcdefghijklmnop", "antwoord@reply.example.nl", "noreply@x.nl", {
      messageId: "r1@mail.klant.nl",
      references: ["lead.abcdefghijklmnop@reply.example.nl", "out.1@reply.example.nl"],
    });
    expect(h).toEqual({
      replyTo: "antwoord+abcdefghijklmnop@reply.example.nl",
      messageId: `<out.${OUT}@reply.example.nl>`,
      inReplyTo: "<r1@mail.klant.nl>",
      references: "<lead.abcdefghijklmnop@reply.example.nl> <out.1@reply.example.nl> <r1@mail.klant.nl>",
    });
  });

  it("put the lead's reference first when the customer's client dropped it, and leave out what is no id", () => {
    const h = leadMailHeaders(OUT, "abcdefghijklmnop", null, "noreply@x.nl", {
      messageId: "sha256:00ff",
      references: ["a b@c", "ok@mail.nl", "<x>@y", "line\r\nBcc: x@y"],
    });
    expect(h.replyTo).toBeNull();
    expect(h.inReplyTo).toBeNull();
    expect(h.references).toBe("<lead.abcdefghijklmnop@x.nl> <ok@mail.nl>");
  });

  it("answer an e-mail of no lead with its thread only", () => {
    const h = leadMailHeaders(OUT, null, "antwoord@reply.example.nl", "noreply@x.nl", {
      messageId: "r2@mail.klant.nl",
      references: [],
    });
    expect(h).toMatchObject({
      replyTo: null,
      inReplyTo: "<r2@mail.klant.nl>",
      references: "<r2@mail.klant.nl>",
    });
  });

  it("keep References one header line in a long conversation: the first id and the newest that fit", () => {
    const references = Array.from(
      { length: 200 },
      (_, i) => `msg-${String(i).padStart(3, "0")}@mail.klant.nl`,
    );
    const h = leadMailHeaders(OUT, "abcdefghijklmnop", "antwoord@reply.example.nl", "noreply@x.nl", {
      messageId: "last@mail.klant.nl",
      references,
    });
    expect(h.references!.length).toBeLessThanOrEqual(900);
    const ids = h.references!.split(" ");
    expect(ids[0]).toBe("<lead.abcdefghijklmnop@reply.example.nl>");
    expect(ids.at(-1)).toBe("<last@mail.klant.nl>");
    expect(ids.at(-2)).toBe("<msg-199@mail.klant.nl>");
    expect(ids).not.toContain("<msg-000@mail.klant.nl>");
  });
});
