import type { z } from "zod";
import { HttpError } from "./errors";

/** Parses `data` with `schema`; failures become a 400 that lists every field and its message. */
export function parseOr400<S extends z.ZodType>(schema: S, data: unknown): z.infer<S> {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const fields = result.error.issues.map((issue) => ({
    path: issue.path.map(String).join(".") || "(body)",
    message:
      issue.code === "unrecognized_keys"
        ? `Onbekend veld: ${issue.keys.join(", ")}`
        : issue.code === "invalid_type" && issue.path.length === 0
          ? "Stuur een JSON-object"
          : issue.message,
  }));
  const first = fields[0];
  const message = fields.length === 1 && first ? first.message : "Controleer de ingevulde gegevens";
  throw new HttpError(400, "validation_failed", message, fields);
}
