import { sql } from "drizzle-orm";
import { boolean, check, pgSchema, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { outboxTable } from "@lease/platform/outbox-table";

export const settings = pgSchema("settings");

/** Audit entries of saves, written in the save's transaction and relayed to the `audit` queue. */
export const outbox = outboxTable(settings);

// Both tables hold exactly one row: `singleton` is always true and unique, so two concurrent
// first writes conflict on it instead of creating a second row (writes are upserts on it).

export const companySettings = settings.table(
  "company_settings",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    singleton: boolean("singleton").notNull().default(true).unique(),
    companyName: text("company_name"),
    mobileAbbreviation: text("mobile_abbreviation"),
    kvkNumber: text("kvk_number"),
    btwNumber: text("btw_number"),
    address: text("address"),
    city: text("city"),
    postalCode: text("postal_code"),
    phoneNumber: text("phone_number"),
    emailAddress: text("email_address"),
    website: text("website"),
    description: text("description"),
    /** AES-256-GCM, base64 of iv (12) + tag (16) + ciphertext; never the key in clear. */
    sendgridApiKeyEncrypted: text("sendgrid_api_key_encrypted"),
    fromEmailAddress: text("from_email_address"),
    /** The company's e-mail about each new quote request and contact message (sent by the mailer's lead.received job). */
    notifyCompanyEmail: boolean("notify_company_email").notNull().default(true),
    facebookPixelId: text("facebook_pixel_id"),
    snapchatPixelId: text("snapchat_pixel_id"),
    tiktokPixelId: text("tiktok_pixel_id"),
    // Conversions sent server-side to each ad platform (the conversions service): a switch and the
    // platform's access token, encrypted like the SendGrid key and never answered back.
    metaConversionsEnabled: boolean("meta_conversions_enabled").notNull().default(false),
    metaAccessTokenEncrypted: text("meta_access_token_encrypted"),
    tiktokConversionsEnabled: boolean("tiktok_conversions_enabled").notNull().default(false),
    tiktokAccessTokenEncrypted: text("tiktok_access_token_encrypted"),
    snapchatConversionsEnabled: boolean("snapchat_conversions_enabled").notNull().default(false),
    snapchatAccessTokenEncrypted: text("snapchat_access_token_encrypted"),
    // Google (Data Manager API): the Google Ads account, each event's conversion action and the
    // credentials (service account key or OAuth client, as JSON) encrypted like the tokens.
    googleConversionsEnabled: boolean("google_conversions_enabled").notNull().default(false),
    googleCustomerId: text("google_customer_id"),
    googleActionLead: text("google_action_lead"),
    googleActionOfferte: text("google_action_offerte"),
    googleActionGetekend: text("google_action_getekend"),
    googleCredentialsEncrypted: text("google_credentials_encrypted"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    /** Null until the admin saves the first time. */
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [check("company_settings_singleton", sql`${t.singleton}`)],
);

export const themeSettings = settings.table(
  "theme_settings",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    singleton: boolean("singleton").notNull().default(true).unique(),
    primaryColor: text("primary_color").notNull(),
    primaryHover: text("primary_hover").notNull(),
    accentColor: text("accent_color").notNull(),
    backgroundGradientStart: text("background_gradient_start").notNull(),
    backgroundGradientEnd: text("background_gradient_end").notNull(),
    textPrimary: text("text_primary").notNull(),
    textSecondary: text("text_secondary").notNull(),
    buttonRadius: text("button_radius").notNull(),
    cardRadius: text("card_radius").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [check("theme_settings_singleton", sql`${t.singleton}`)],
);
