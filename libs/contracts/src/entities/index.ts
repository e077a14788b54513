export * from "./common";
export * from "./lease-request";
export * from "./admin";
export * from "./visitor";
export * from "./email-message";
export * from "./theme-settings";
export * from "./company-settings";
export * from "./calculator";
