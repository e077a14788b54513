import type { ReactNode } from "react";
import { Button } from "./Button";

/** "Vorige" / "Volgende" around what the page shows (default "Pagina 2 van 5"); `page` from 1. */
export function Pager({
  page,
  lastPage,
  onPage,
  label = `Pagina ${page} van ${lastPage}`,
}: {
  page: number;
  lastPage: number;
  onPage: (page: number) => void;
  label?: ReactNode;
}) {
  return (
    <div className="mt-4 flex items-center justify-between gap-3 text-sm">
      <Button variant="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Vorige
      </Button>
      <span className="text-center">{label}</span>
      <Button variant="secondary" disabled={page >= lastPage} onClick={() => onPage(page + 1)}>
        Volgende
      </Button>
    </div>
  );
}
