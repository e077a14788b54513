const UNITS: Record<string, number> = {
  b: 1 / 2 ** 20,
  k: 1 / 1024,
  kb: 1 / 1024,
  ki: 1 / 1024,
  m: 1,
  mb: 1,
  mi: 1,
  g: 1024,
  gb: 1024,
  gi: 1024,
};

/**
 * A memory size as Redis (`256mb`), Compose (`384m`) or Kubernetes (`1Gi`) writes it, in MiB
 * (the checks compare sizes, so 1000 and 1024 need not be told apart); NaN when unreadable.
 */
export function megabytes(size: string | number | undefined): number {
  const match = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(String(size ?? "").trim());
  const unit = match ? UNITS[(match[2] || "b").toLowerCase()] : undefined;
  return match && unit !== undefined ? Number(match[1]) * unit : NaN;
}
