import { DataTable } from "../../components/ui";
import { Island } from "../../site/Island";
import { Article, Bullets, LegalPage } from "./LegalPage";

const HEAD = ["Cookie", "Doel", "Bewaartermijn"];

const NECESSARY: [string, string, string][] = [
  ["session_id", "Houdt uw sessie bij tijdens het bezoek", "Sessie"],
  ["cookie_consent", "Onthoudt uw cookievoorkeuren", "1 jaar"],
  ["form_data", "Bewaart ingevulde formuliergegevens tijdelijk", "1 dag"],
];

const ANALYTICS: [string, string, string][] = [
  [
    "visitor-session (lokale opslag)",
    "Herkent uw browser bij een volgend bezoek (onze eigen bezoekersstatistiek)",
    "Tot u uw toestemming intrekt",
  ],
  ["_ga", "Onderscheidt bezoekers (Google Analytics)", "2 jaar"],
  ["_ga_*", "Houdt de sessiestatus bij (Google Analytics)", "2 jaar"],
  ["_gid", "Onderscheidt bezoekers per dag (Google Analytics)", "1 dag"],
];

const MARKETING: [string, string, string][] = [
  ["_gcl_au", "Meet conversies van advertenties (Google Ads)", "90 dagen"],
  ["ads_data_redaction", "Beperkt advertentiegegevens zonder toestemming (Google)", "Sessie"],
  ["_fbp", "Meet bezoeken voor advertenties (Meta Pixel)", "90 dagen"],
  ["_fbc", "Bewaart de klik op een Meta-advertentie", "90 dagen"],
];

const BROWSERS = [
  { name: "Google Chrome", href: "https://support.google.com/chrome/answer/95647?hl=nl" },
  {
    name: "Mozilla Firefox",
    href: "https://support.mozilla.org/nl/kb/cookies-verwijderen-gegevens-wissen-websites-opgeslagen",
  },
  { name: "Apple Safari", href: "https://support.apple.com/nl-nl/guide/safari/sfri11471/mac" },
  { name: "Microsoft Edge", href: "https://support.microsoft.com/nl-nl/microsoft-edge" },
];

export default function CookieBeleidPage() {
  return (
    <LegalPage
      title="Cookie Beleid"
      intro={
        <p>
          Cookies zijn kleine tekstbestanden die een website op uw apparaat opslaat. Hieronder leest u welke
          cookies wij gebruiken, waarvoor en hoe lang. Analytische en marketingcookies plaatsen wij alleen met
          uw toestemming.
        </p>
      }
    >
      <Article id="instellingen" title="Uw cookievoorkeuren">
        <p>U kunt uw keuze op ieder moment bekijken of wijzigen.</p>
        <Island name="cookie-settings" />
      </Article>

      <Article id="noodzakelijk" title="Noodzakelijke cookies">
        <p>Deze cookies zijn nodig om de website te laten werken en kunnen niet worden uitgeschakeld.</p>
        <DataTable caption="Noodzakelijke cookies" head={HEAD} rows={NECESSARY} />
      </Article>

      <Article id="analytisch" title="Analytische cookies">
        <p>
          Met deze cookies meten wij hoe bezoekers de website gebruiken, zodat wij die kunnen verbeteren. Met
          uw toestemming bewaren wij in de lokale opslag van uw browser een bezoekerscode (visitor-session),
          zodat wij terugkerende bezoeken herkennen. Bij een bezoek dat nu plaatsvindt ziet ons personeel dan
          de pagina, uw browser, plaats en land en een ingekort IP-adres (zonder de laatste cijfers). Stuurt u
          ons dan een offerteaanvraag of contactbericht, dan gaat de bezoekerscode mee, zodat wij bij uw
          aanvraag zien langs welke weg (bijvoorbeeld een advertentie of een zoekmachine) en via welke
          pagina's u bij ons kwam. Zonder deze toestemming gebeurt dat niet.
        </p>
        <p>
          Zonder deze toestemming tellen wij uw bezoek ook, maar slaan wij niets op uw apparaat op. Wij
          herkennen uw bezoek dan alleen op de dag zelf, aan een onomkeerbare code die onze server berekent
          uit uw IP-adres en browser met een sleutel die elke nacht om 00:00 uur wordt vervangen en daarna
          nergens bewaard blijft. Uw IP-adres en browser zijn voor ons personeel dan niet zichtbaar. Uw
          volledige IP-adres slaan wij in geen van beide gevallen op.
        </p>
        <DataTable caption="Analytische cookies" head={HEAD} rows={ANALYTICS} />
      </Article>

      <Article id="marketing" title="Marketingcookies">
        <p>
          Met uw toestemming laden wij advertentiepixels van Meta (Facebook en Instagram), Snapchat en TikTok.
          Zo meten wij het resultaat van onze advertenties en tonen wij relevante advertenties.
        </p>
        <DataTable caption="Marketingcookies" head={HEAD} rows={MARKETING} />
      </Article>

      <Article id="browser" title="Cookies beheren in uw browser">
        <p>U kunt cookies ook zelf verwijderen of blokkeren via uw browserinstellingen:</p>
        <Bullets
          items={BROWSERS.map((browser) => (
            <a
              key={browser.name}
              href={browser.href}
              className="text-primary-strong underline"
              rel="noopener noreferrer"
            >
              {browser.name}
            </a>
          ))}
        />
      </Article>

      <Article id="externe-diensten" title="Externe diensten">
        <p>
          Partijen als Google, Meta, Snap en TikTok verwerken gegevens ook volgens hun eigen privacy- en
          cookiebeleid. Wij hebben geen invloed op hoe deze partijen hun cookies gebruiken; raadpleeg daarvoor
          hun eigen beleid.
        </p>
      </Article>

      <Article id="wijzigingen" title="Wijzigingen">
        <p>
          Wij kunnen dit cookiebeleid aanpassen wanneer wij andere cookies gaan gebruiken. De actuele versie
          staat altijd op deze pagina.
        </p>
      </Article>

      <Article id="contact" title="Contact">
        <p>Heeft u vragen over ons cookiebeleid? Neem dan contact met ons op:</p>
        <Island name="company-address" />
      </Article>
    </LegalPage>
  );
}
