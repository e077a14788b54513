export function csvRecords(lines: AsyncIterable<string> | Iterable<string>): AsyncGenerator<string[]>;
export function utcIso(value: string): string;
export function umamiToNdjson(records: AsyncIterable<string[]>): AsyncGenerator<string>;
