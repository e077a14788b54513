/** Small inline icon per inbox type: a car for lease requests, a speech bubble for contact, an envelope otherwise. */
export function EmailTypeIcon({ type }: { type: string }) {
  const path =
    type === "lease_request"
      ? "M5 11l1.5-4.5A2 2 0 0 1 8.4 5h7.2a2 2 0 0 1 1.9 1.5L19 11m-14 0h14m-14 0v5h14v-5M7 16v2m10-2v2M7.5 13.5h.01m9 0h.01"
      : type === "contact_form"
        ? "M4 5h16v11H8l-4 4z"
        : "M3 6h18v12H3zM3 6l9 7 9-7";
  return (
    <svg
      className="h-4 w-4 shrink-0"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      data-testid={`icon-${type}`}
    >
      <path d={path} />
    </svg>
  );
}
