import type { Page } from "@playwright/test";
import { CALCULATOR_DEFAULTS, calculateLease } from "../src/lib/calculator";
import { formatEuro } from "../src/lib/format";
import { assert, assertEqual, waitFor, test } from "./fixtures";

/** Waits until React runs the calculator: before that, what is typed is not computed yet. */
const calculatorHydrated = (page: Page) => page.locator('#calculator form[data-hydrated="true"]').waitFor();

async function results(page: Page) {
  const read = (id: string) => page.getByTestId(id).innerText();
  return {
    monthly: await read("calc-maandbedrag"),
    base: await read("calc-basis"),
    extra: await read("calc-extra"),
    interest: await read("calc-rente-totaal"),
    total: await read("calc-totaal"),
  };
}

test("the calculator shows the default result: € 606 per month", async ({ site: t }) => {
  const { page } = await t.open("/");
  assertEqual(
    await results(page),
    { monthly: "€ 606", base: "€ 456", extra: "€ 150", interest: "€ 1.891", total: "€ 34.091" },
    "default results",
  );
});

test("the calculator recomputes live for other inputs", async ({ site: t }) => {
  const { page } = await t.open("/");
  await page.getByLabel("Catalogusprijs van de auto").fill("40000");
  await page.getByLabel("Aanbetaling").fill("10000");
  await page.getByLabel("Looptijd", { exact: true }).selectOption("60");
  await page.getByLabel("Rente (%)").fill("6");
  await page.getByLabel(/Onderhoud/).check();
  assertEqual(
    await results(page),
    { monthly: "€ 850", base: "€ 580", extra: "€ 270", interest: "€ 4.799", total: "€ 60.999" },
    "40000 / 10000 / 60 / 6% / insurance + maintenance",
  );
  await page.getByLabel("Rente (%)").fill("0");
  await page.getByLabel(/Verzekering/).uncheck();
  await page.getByLabel(/Onderhoud/).uncheck();
  assertEqual((await results(page)).monthly, "€ 500", "0% interest: 30000 / 60");
});

test("a price change that leaves the down payment above 50% resets it to 20%, on the slider's steps", async ({
  site: t,
}) => {
  const { page } = await t.open("/");
  const slider = page.getByLabel("Aanbetaling");
  await page.getByLabel("Catalogusprijs van de auto").fill("8000");
  // 20% of 8.000 is 1.600; the slider moves in steps of 500, so both say 1.500. A price typed
  // before hydration is applied by the early-input recorder a moment later: wait for it.
  const shown = () => page.getByTestId("calc-aanbetaling-waarde").innerText();
  await waitFor(
    async () => (await shown()) === "€ 1.500 (19%)",
    5000,
    "the down payment reset to 20% of 8000",
  ).catch(async (error: unknown) => {
    throw new Error(`${String(error)}; shown: "${await shown()}"`);
  });
  assertEqual(await slider.inputValue(), "1500", "the slider shows the amount beside it");
  assertEqual(await slider.getAttribute("max"), "4000", "slider max is 50% of the price");

  // 1.000, the minimum: 20% is 200, off the slider's steps; slider and amount agree on € 0.
  await page.getByLabel("Catalogusprijs van de auto").fill("25000");
  await slider.fill("10000");
  await page.getByLabel("Catalogusprijs van de auto").fill("1000");
  await page.getByLabel("Catalogusprijs van de auto").blur();
  assertEqual(await shown(), "€ 0 (0%)", "the amount shown");
  assertEqual(await slider.inputValue(), "0", "the slider agrees");
});

test("a price with a decimal point, letters and out-of-range values are read or corrected, saying so beside the field", async ({
  site: t,
}) => {
  const { page } = await t.open("/");
  await calculatorHydrated(page);
  const price = page.getByLabel("Catalogusprijs van de auto");
  const rate = page.getByLabel("Rente (%)");
  const priceNote = page.locator("#calc-prijs-correctie");
  const rateNote = page.locator("#calc-rente-correctie");

  // "30000.50" is thirty thousand euros and fifty cents, not 3.000.050 capped at 200.000.
  await price.fill("30000.50");
  await price.blur();
  assertEqual(await price.inputValue(), "30000,50", "shown the Dutch way");
  const expected = calculateLease({ ...CALCULATOR_DEFAULTS, carPrice: 30_000.5 });
  assertEqual((await results(page)).monthly, formatEuro(expected.monthlyPayment), "computed from 30.000,50");
  assertEqual(await priceNote.innerText(), "", "nothing to say about a readable price");

  // Letters are left out as they are typed, and the field says so.
  await price.click();
  await price.press("Control+a");
  await price.pressSequentially("2x5000");
  assertEqual(await price.inputValue(), "25000", "the letter left out");
  await priceNote.getByText("Alleen cijfers: letters en andere tekens zijn weggelaten").waitFor();
  await price.fill("abc");
  await price.blur();
  assertEqual(await price.inputValue(), "1000", "nothing readable: the minimum");
  await priceNote.getByText("Aangepast naar het minimum van € 1.000").waitFor();
  assert(
    ((await price.getAttribute("aria-describedby")) ?? "").includes("calc-prijs-correctie"),
    "the note belongs to the field",
  );
  await price.fill("24000");
  assertEqual(await priceNote.innerText(), "", "the note goes when the field is entered again");

  await rate.fill("abc");
  await rate.blur();
  assertEqual(await rate.inputValue(), "0", "the rate without digits");
  await rateNote.getByText("Aangepast naar 0%").waitFor();
  await rate.fill("25");
  await rate.blur();
  await rateNote.getByText("Aangepast naar het maximum van 20%").waitFor();
  assertEqual(await rate.inputValue(), "20", "the maximum");
});

test("the interest rate is clamped to 0-20 and a zero price gives zeros", async ({ site: t }) => {
  const { page } = await t.open("/");
  await page.getByLabel("Rente (%)").fill("25");
  await page.getByLabel("Rente (%)").blur();
  assertEqual(await page.getByLabel("Rente (%)").inputValue(), "20", "rate clamped to 20");
  await page.getByLabel("Catalogusprijs van de auto").fill("0");
  assertEqual(
    await results(page),
    { monthly: "€ 0", base: "€ 0", extra: "€ 0", interest: "€ 0", total: "€ 0" },
    "zero price",
  );
});

test("what a visitor set before the page hydrated is kept and computed", async ({ site: t }) => {
  let release: () => void = () => undefined;
  const scripts = new Promise<void>((done) => (release = done));
  const { page } = await t.open("/", { holdScriptsUntil: scripts });
  await page.getByLabel("Catalogusprijs van de auto").fill("40000");
  await page.getByLabel("Aanbetaling").fill("10000");
  await page.getByLabel("Looptijd", { exact: true }).selectOption("60");
  await page.getByLabel("Rente (%)").fill("6");
  await page.getByLabel(/Onderhoud/).check();
  // Before hydration the result still shows the pre-rendered defaults.
  assertEqual((await results(page)).monthly, "€ 606", "nothing computed before the scripts run");

  release();
  await waitFor(
    async () => (await results(page)).monthly === "€ 850",
    15_000,
    "the hydrated calculator computes what was entered early",
  );
  assertEqual(
    await results(page),
    { monthly: "€ 850", base: "€ 580", extra: "€ 270", interest: "€ 4.799", total: "€ 60.999" },
    "40000 / 10000 / 60 / 6% / insurance + maintenance, entered before hydration",
  );
  assertEqual(await page.getByLabel("Catalogusprijs van de auto").inputValue(), "40000", "price kept");
  assertEqual(await page.getByLabel("Aanbetaling").inputValue(), "10000", "slider kept");
  assertEqual(await page.getByLabel(/Onderhoud/).isChecked(), true, "maintenance still ticked");
});

test("Dutch notation: a decimal comma in the rate and a thousands dot in the price", async ({ site: t }) => {
  const { page } = await t.open("/");
  const rate = page.getByLabel("Rente (%)");
  await calculatorHydrated(page);
  assertEqual(await rate.inputValue(), "4,5", "the rate shown with a comma");
  // Typed key by key, as a person does: the emptied field and "4," on the way must not stick.
  await rate.click();
  await rate.press("Control+a");
  await rate.press("Backspace");
  await rate.pressSequentially("4,9");
  assertEqual(await rate.inputValue(), "4,9", "the rate field keeps what was typed");
  await page.getByText("Op basis van 48 maanden en 4,9% rente.").waitFor();

  const price = page.getByLabel("Catalogusprijs van de auto");
  await price.click();
  await price.press("Control+a");
  await price.press("Backspace");
  await price.pressSequentially("30.000");
  await price.blur();
  assertEqual(await price.inputValue(), "30000", "the price read as thirty thousand");
  assertEqual(
    await page.getByTestId("calc-aanbetaling-waarde").innerText(),
    "€ 5.000 (17%)",
    "the down payment survived the emptied field",
  );

  await price.fill("999999999");
  await price.blur();
  assertEqual(await price.inputValue(), "200000", "the price kept within the 200.000 maximum");
});

test("the price settles within 1.000-200.000 and the rate in steps of 0.1, as computed", async ({
  site: t,
}) => {
  const { page } = await t.open("/");
  const price = page.getByLabel("Catalogusprijs van de auto");
  const rate = page.getByLabel("Rente (%)");
  await calculatorHydrated(page);
  await price.fill("500");
  await price.blur();
  assertEqual(await price.inputValue(), "1000", "500 becomes the 1.000 minimum");
  await rate.fill("7.35");
  await rate.blur();
  assertEqual(await rate.inputValue(), "7,4", "7.35 is taken as 7,4");
  await page.getByText("Op basis van 48 maanden en 7,4% rente.").waitFor();
  // The down payment follows the reset rule: from 5.000 it was reset on the way (to 20% of 500 or
  // of 1.000 on the slider's €500 steps: 0); the results must be those of what it shows.
  const shown = await page.getByTestId("calc-aanbetaling-waarde").innerText();
  const downPayment = Number(/€\s*([\d.]+)/.exec(shown)![1]!.replace(/\./g, ""));
  assert(downPayment === 0, `down payment reset, got "${shown}"`);
  const expected = calculateLease({
    ...CALCULATOR_DEFAULTS,
    carPrice: 1000,
    downPayment,
    annualRatePercent: 7.4,
  });
  assertEqual(
    await results(page),
    {
      monthly: formatEuro(expected.monthlyPayment),
      base: formatEuro(expected.baseLease),
      extra: formatEuro(expected.additionalCosts),
      interest: formatEuro(expected.totalInterest),
      total: formatEuro(expected.totalCost),
    },
    "the results are those of 1.000 at 7,4%",
  );
});
