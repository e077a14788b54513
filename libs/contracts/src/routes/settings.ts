import { AdminCompanySettings, PublicCompanySettings } from "../entities/company-settings";
import { ThemeSettings } from "../entities/theme-settings";
import { ConversionSettings, UpdateConversionSettingsBody } from "../http/conversions";
import { UpdateCompanySettingsBody, UpdateThemeSettingsBody } from "../http/settings";
import type { ApiRoute } from "../routes";

// The settings service's routes: the company's and the theme's settings, and the ad platforms'
// conversion settings.

export const SETTINGS_ROUTES = [
  {
    method: "GET",
    path: "/api/company-settings",
    service: "settings",
    auth: "public",
    summary: "Public company details and pixel ids (never secrets)",
    responses: { 200: { description: "Company settings", schema: PublicCompanySettings } },
  },
  {
    method: "GET",
    path: "/api/theme-settings",
    service: "settings",
    auth: "public",
    summary: "Theme colours and radii",
    responses: { 200: { description: "Theme settings", schema: ThemeSettings } },
  },
  {
    method: "GET",
    path: "/api/admin/conversion-settings",
    service: "settings",
    auth: "admin",
    summary: "Which ad platforms receive the leads' conversions server-side; tokenSet, never a token",
    responses: { 200: { description: "Per platform", schema: ConversionSettings } },
  },
  {
    method: "PUT",
    path: "/api/admin/conversion-settings",
    service: "settings",
    auth: "admin",
    summary: "Switch platforms on or off and store their access tokens (encrypted)",
    request: { body: UpdateConversionSettingsBody, bodyOptional: true },
    responses: { 200: { description: "Per platform", schema: ConversionSettings } },
  },
  {
    method: "GET",
    path: "/api/admin/company-settings",
    service: "settings",
    auth: "admin",
    summary: "Company, e-mail and pixel settings; the API key masked",
    responses: { 200: { description: "Company settings", schema: AdminCompanySettings } },
  },
  {
    method: "PUT",
    path: "/api/admin/company-settings",
    service: "settings",
    auth: "admin",
    summary: "Partially update company, e-mail and pixel settings",
    request: { body: UpdateCompanySettingsBody, bodyOptional: true },
    responses: { 200: { description: "Stored settings", schema: AdminCompanySettings } },
  },
  {
    method: "PUT",
    path: "/api/admin/theme-settings",
    service: "settings",
    auth: "admin",
    summary: "Partially update the theme",
    request: { body: UpdateThemeSettingsBody, bodyOptional: true },
    responses: { 200: { description: "Stored theme", schema: ThemeSettings } },
  },
  {
    method: "POST",
    path: "/api/admin/theme-settings/reset",
    service: "settings",
    auth: "admin",
    summary: "Reset the theme to the defaults",
    responses: { 200: { description: "Default theme, stored", schema: ThemeSettings } },
  },
] as const satisfies readonly ApiRoute[];
