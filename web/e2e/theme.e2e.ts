import { assertEqual, waitFor, test } from "./fixtures";

test("theme settings reach the CSS variables and the coloured elements", async ({ site: t }) => {
  const { page } = await t.open("/", {
    theme: {
      primaryColor: "#2563EB",
      accentColor: "#059669",
      buttonRadius: "9999px",
      backgroundGradientStart: "#111111",
    },
  });
  const variable = (name: string) =>
    page.evaluate((n) => document.documentElement.style.getPropertyValue(n), name);
  await waitFor(
    async () => (await variable("--color-primary")) === "#2563EB",
    5000,
    "--color-primary applied",
  );
  assertEqual(await variable("--color-accent"), "#059669", "--color-accent");
  assertEqual(await variable("--radius-button"), "9999px", "--radius-button");
  assertEqual(await variable("--gradient-start"), "#111111", "--gradient-start");
  assertEqual(await variable("--text-primary"), "#111827", "--text-primary (default from the server)");
  const button = page
    .getByRole("navigation", { name: "Hoofdmenu" })
    .getByRole("link", { name: "Offerte Aanvragen" });
  const style = () =>
    button.evaluate((element) => {
      const computed = getComputedStyle(element);
      return `${computed.backgroundColor} ${computed.borderTopLeftRadius}`;
    });
  // Buttons animate colour changes: wait for the transition to finish.
  await waitFor(
    async () => (await style()) === "rgb(37, 99, 235) 9999px",
    5000,
    "button in the theme colour and radius",
  );
});
