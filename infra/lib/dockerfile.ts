import { readFileSync } from "node:fs";

export interface Instruction {
  keyword: string;
  args: string;
}
export interface Stage {
  from: string;
  alias?: string;
  instructions: Instruction[];
}

/** Instructions grouped by stage; comments dropped, backslash continuations joined. */
export function parseDockerfile(file: string): Stage[] {
  const logical: string[] = [];
  let pending = "";
  for (const raw of readFileSync(file, "utf8").split("\n")) {
    const line = raw.trim();
    if (line.startsWith("#") || (line === "" && pending === "")) continue;
    pending += (pending ? " " : "") + line.replace(/\\$/, "").trim();
    if (!line.endsWith("\\")) {
      logical.push(pending);
      pending = "";
    }
  }
  const stages: Stage[] = [];
  for (const line of logical) {
    const [, keyword = "", args = ""] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    const instruction = { keyword: keyword.toUpperCase(), args };
    if (instruction.keyword === "FROM") {
      const [from = "", as, alias] = args.replace(/--platform=\S+\s*/, "").split(/\s+/);
      stages.push({ from, alias: as?.toUpperCase() === "AS" ? alias : undefined, instructions: [] });
    } else {
      const stage = stages.at(-1);
      if (!stage) throw new Error(`${file}: ${keyword} before the first FROM`);
      stage.instructions.push(instruction);
    }
  }
  return stages;
}

/** A base image pinned to a version (major.minor at least) or a digest: never latest, never a bare major. */
export function isPinnedImage(image: string): boolean {
  if (/@sha256:[a-f0-9]{64}$/.test(image)) return true;
  const tag = /:([^/:]+)$/.exec(image)?.[1];
  return !!tag && tag !== "latest" && /^v?\d+\.\d+/.test(tag);
}

/** The JSON array of an exec-form CMD/ENTRYPOINT/HEALTHCHECK CMD, or undefined for shell form. */
export function execForm(args: string): string[] | undefined {
  try {
    const parsed: unknown = JSON.parse(args);
    return Array.isArray(parsed) && parsed.every((p) => typeof p === "string") ? parsed : undefined;
  } catch {
    return undefined;
  }
}
