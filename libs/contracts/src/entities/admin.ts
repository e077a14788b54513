import { z } from "zod";
import { IsoDateTime, Uuid } from "./common";

/** An admin account as other code may see it: the password hash never leaves the gateway. */
export const Admin = z.object({
  id: Uuid,
  username: z.string(),
  createdAt: IsoDateTime,
});
export type Admin = z.infer<typeof Admin>;
