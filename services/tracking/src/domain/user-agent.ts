// Device class, browser and operating system from a user agent, kept instead of the user agent
// itself: three short words per visitor-day are what the breakdowns need, and a full user agent
// string is both a fingerprint and ~120 bytes a row. Order matters: Edge and Opera also say Chrome,
// Chrome also says Safari, iPadOS may say Macintosh.

export interface Device {
  device: "desktop" | "mobile" | "tablet";
  browser: string;
  os: string;
}

const BROWSERS: [RegExp, string][] = [
  [/Edg(e|A|iOS)?\//, "Edge"],
  [/OPR\/|Opera/, "Opera"],
  [/SamsungBrowser\//, "Samsung Internet"],
  [/Firefox\/|FxiOS\//, "Firefox"],
  [/Chrome\/|CriOS\/|Chromium\//, "Chrome"],
  [/Safari\//, "Safari"],
];

const SYSTEMS: [RegExp, string][] = [
  [/iPhone|iPad|iPod/, "iOS"],
  [/Android/, "Android"],
  [/CrOS/, "ChromeOS"],
  [/Windows/, "Windows"],
  [/Mac OS X|Macintosh/, "macOS"],
  [/Linux/, "Linux"],
];

export const UNKNOWN = "Overig";

export function classifyUserAgent(ua: string): Device {
  const browser = BROWSERS.find(([re]) => re.test(ua))?.[1] ?? UNKNOWN;
  const os = SYSTEMS.find(([re]) => re.test(ua))?.[1] ?? UNKNOWN;
  let device: Device["device"] = "desktop";
  if (/iPad|Tablet|Android(?!.*Mobile)/.test(ua)) device = "tablet";
  else if (/Mobi|iPhone|iPod|Android/.test(ua)) device = "mobile";
  return { device, browser, os };
}
