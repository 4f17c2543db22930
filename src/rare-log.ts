/**
 * A log line for a fault that can repeat on every request (a full disk, a database that is
 * down): written at once, then at most once per interval per kind, with how many were held
 * back — visible at LOG_LEVEL=warn, never a flood.
 *
 *   const rare = rareLog(logger);   rare('replay-store', `Could not …: ${e}`);
 */
export type RareLog = (kind: string, message: string) => void;

export function rareLog(
  logger: { error(message: string): void },
  intervalMs = 60_000,
  now: () => number = Date.now,
): RareLog {
  const last = new Map<string, { at: number; held: number }>();
  return (kind, message) => {
    const t = now();
    const seen = last.get(kind);
    if (seen && t - seen.at < intervalMs) {
      seen.held++;
      return;
    }
    const held = seen?.held ? ` (${seen.held} more like it since the last such line)` : '';
    last.set(kind, { at: t, held: 0 });
    logger.error(`${message}${held}`);
  };
}
