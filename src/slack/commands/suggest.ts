/**
 * "Did you mean …?" for a mistyped `/work` command: the closest registered name by edit
 * distance (fastest-levenshtein), so `/work lsit` points at `/work list` instead of printing
 * the whole help.
 */
import { distance } from 'fastest-levenshtein';

/**
 * The command name closest to what was typed, or undefined when nothing is close enough.
 * `typed` is the whole text after /work; `names` are the registered names and aliases
 * (one or two words, lower-case), in the order ties should be broken.
 */
export function closestCommand(typed: string, names: readonly string[]): string | undefined {
  const words = typed.trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return undefined;
  let best: { name: string; score: number } | undefined;
  for (const name of names) {
    const n = name.split(' ').length;
    if (words.length < n) continue;
    const attempt = words.slice(0, n).join(' ');
    const score = distance(attempt, name);
    if (score > allowedDistance(attempt)) continue;
    if (!best || score < best.score) best = { name, score };
  }
  if (best) return best.name;
  // A clear beginning of one command (`/work proj`) also counts.
  const first = words[0]!;
  if (first.length < 3) return undefined;
  const starts = [...new Set(names.map((n) => n.split(' ')[0]!))].filter((n) =>
    n.startsWith(first),
  );
  return starts.length === 1 ? starts[0] : undefined;
}

/** One slip in a short word, two in a longer one (a swap of two letters counts as two). */
function allowedDistance(word: string): number {
  return word.length <= 3 ? 1 : 2;
}
