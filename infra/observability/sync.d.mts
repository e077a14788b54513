export function prometheusRule(rulesText: string): Record<string, unknown>;
export function renderPrometheusRule(rulesText: string): string;
