import type { Locator, Page } from "@playwright/test";
import { assert } from "../fixtures";

const WAIT_MS = 10_000;

/** Waits for the one visible notice to carry this title (and description, when given). */
export async function expectNotice(page: Page, title: string, description?: string): Promise<Locator> {
  const notice = page.getByTestId("notice");
  await notice.filter({ hasText: title }).waitFor({ timeout: WAIT_MS });
  if (description !== undefined) {
    const text = await notice.innerText();
    assert(text.includes(description), `notice "${title}" should say "${description}", got "${text}"`);
  }
  return notice;
}

export async function dismissNotice(page: Page): Promise<void> {
  const close = page.getByRole("button", { name: "Melding sluiten" });
  if (await close.isVisible()) await close.click();
}

export async function openTab(page: Page, name: string): Promise<void> {
  await page.getByRole("tab", { name, exact: true }).click();
}

/** The number shown in one of the counter tiles. */
export async function counter(page: Page, label: string): Promise<string> {
  return (await page.getByTestId(`counter-${label}`).getByTestId("counter-value").innerText()).trim();
}

export async function waitForCounter(page: Page, label: string, expected: string): Promise<void> {
  await page
    .getByTestId(`counter-${label}`)
    .getByTestId("counter-value")
    .filter({ hasText: new RegExp(`^${expected}$`) })
    .waitFor({ timeout: WAIT_MS });
}

export async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.getByLabel("Gebruikersnaam").fill(username);
  await page.getByLabel("Wachtwoord").fill(password);
  await page.getByRole("button", { name: "Inloggen" }).click();
}
