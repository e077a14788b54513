/**
 * Remembers the answers of a pure function of a string, up to `max` distinct inputs (then starts
 * over). User agents and proxy addresses repeat heavily, and the isbot regex and BlockList checks
 * cost microseconds on every hit.
 */
export function memoize<T>(fn: (input: string) => T, max = 5000): (input: string) => T {
  const seen = new Map<string, T>();
  return (input) => {
    let answer = seen.get(input);
    if (answer === undefined) {
      answer = fn(input);
      if (seen.size >= max) seen.clear();
      seen.set(input, answer);
    }
    return answer;
  };
}
