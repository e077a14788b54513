/** In the one-column layout (tablet, phone) the detail panel sits below the list: bring it into view. */
export function revealDetail(element: HTMLElement | null): void {
  requestAnimationFrame(() => {
    if (element && window.matchMedia("(max-width: 1023px)").matches) {
      element.scrollIntoView({ behavior: "smooth", block: "start" });
    }
  });
}
