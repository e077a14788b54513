import type { ReactNode } from "react";
import { userErrorMessage } from "../../api/client";
import { Button } from "./Button";
import { Panel } from "./Panel";

export function LoadingText({ children = "Laden..." }: { children?: ReactNode }) {
  return (
    <p className="py-8 text-center text-gray-600" role="status">
      {children}
    </p>
  );
}

/** What LoadError needs of a failed query (react-query's result). */
interface FailedQuery {
  error: unknown;
  isFetching: boolean;
  refetch: () => unknown;
}

interface LoadErrorProps {
  query: FailedQuery;
  /** Said when the server's answer carries no message of its own. */
  fallback: string;
}

/**
 * Data that could not be loaded, where it would show: the server's message (or `fallback`), and a
 * button that loads it again.
 */
export function LoadError({ query, fallback }: LoadErrorProps) {
  return (
    <div className="py-6 text-center">
      <p className="text-red-700" role="alert" data-testid="load-failed">
        {userErrorMessage(query.error, fallback)}
      </p>
      <Button
        className="mt-4"
        variant="secondary"
        onClick={() => void query.refetch()}
        disabled={query.isFetching}
      >
        {query.isFetching ? "Laden..." : "Opnieuw proberen"}
      </Button>
    </div>
  );
}

/** A tab whose data could not be loaded: its panel with the LoadError. */
export function LoadFailed({ title, ...props }: LoadErrorProps & { title: string }) {
  return (
    <Panel title={title}>
      <LoadError {...props} />
    </Panel>
  );
}

/** A refresh that failed while older rows are still shown: says so above them until one succeeds. */
export function RefreshFailed({ message, what }: { message: string; what: string }) {
  return (
    <div
      role="alert"
      data-testid="refresh-failed"
      className="mb-4 rounded-card border border-red-200 bg-red-50 p-3 text-sm text-red-800"
    >
      <p className="font-semibold">Vernieuwen mislukt</p>
      <p className="mt-1">{message}</p>
      <p className="mt-1">De getoonde {what} zijn van de vorige keer laden en mogelijk niet actueel.</p>
    </div>
  );
}
