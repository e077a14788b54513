import { Link } from "../../lib/link";
import { DataTable } from "../../components/ui";
import { Island } from "../../site/Island";
import { Article, Bullets, LegalPage } from "./LegalPage";

const RETENTION: [string, string, string][] = [
  ["Contractgegevens", "7 jaar na het einde van het contract", "Wettelijke fiscale bewaarplicht"],
  ["Afgewezen of niet doorgezette aanvragen", "1 jaar", "Afhandeling van vragen en klachten"],
  [
    "Offerteaanvragen, contactberichten en de e-mails daarover",
    "1 jaar na ontvangst",
    "Afhandeling van uw aanvraag, vragen en klachten",
  ],
  ["Analytische gegevens", "26 maanden", "Verbeteren van de website"],
  ["Marketingtoestemming", "3 jaar na het laatste contact", "Toestemming, altijd in te trekken"],
];

export default function PrivacyBeleidPage() {
  return (
    <LegalPage
      title="Privacy Beleid"
      intro={
        <p>
          Wij gaan zorgvuldig om met uw persoonsgegevens en houden ons aan de Algemene Verordening
          Gegevensbescherming (AVG). In dit privacybeleid leest u welke gegevens wij verwerken, waarom, hoe
          lang en welke rechten u heeft.
        </p>
      }
    >
      <Article id="wie-zijn-wij" title="1. Wie zijn wij">
        <p>
          <Island name="company-introduction" inline /> is verantwoordelijk voor de verwerking van
          persoonsgegevens zoals beschreven in dit beleid.
        </p>
        <Island name="company-address" />
      </Article>

      <Article id="gegevens" title="2. Welke gegevens wij verzamelen">
        <Bullets
          items={[
            "Contactgegevens: naam, e-mailadres, telefoonnummer en bedrijfsnaam.",
            "Aanvraaggegevens: de link naar de gewenste auto, de gewenste looptijd en uw bericht.",
            "Financiële gegevens die nodig zijn voor een kredietbeoordeling, zoals jaarcijfers en een BKR-toetsing.",
            "Contractgegevens van een afgesloten leaseovereenkomst.",
            "Technische gegevens: bezochte pagina's, verwijzende pagina, browser, IP-adres en een anonieme sessiecode.",
          ]}
        />
      </Article>

      <Article id="doeleinden" title="3. Doeleinden en grondslagen">
        <Bullets
          items={[
            <>
              <strong>Offerte en bemiddeling</strong> - uitvoering van (de voorbereiding van) een
              overeenkomst.
            </>,
            <>
              <strong>Kredietbeoordeling</strong> - uitvoering van een overeenkomst en wettelijke
              verplichting.
            </>,
            <>
              <strong>Administratie en belastingaangifte</strong> - wettelijke verplichting.
            </>,
            <>
              <strong>Beveiliging en verbetering van de website</strong> - gerechtvaardigd belang.
            </>,
            <>
              <strong>Marketing en advertentiepixels</strong> - uitsluitend met uw toestemming.
            </>,
          ]}
        />
      </Article>

      <Article id="bewaartermijnen" title="4. Bewaartermijnen">
        <p>Wij bewaren gegevens niet langer dan nodig. De termijnen zijn:</p>
        <DataTable
          caption="Bewaartermijnen per soort gegevens"
          head={["Gegevens", "Bewaartermijn", "Reden"]}
          rows={RETENTION}
        />
      </Article>

      <Article id="delen" title="5. Delen met derden">
        <p>
          Wij verkopen uw gegevens nooit. Wij delen ze alleen als dat nodig is: met financiers en
          leasemaatschappijen voor uw offerte, met het BKR voor de kredietbeoordeling, met onze hosting- en
          e-mailleveranciers en, met uw toestemming, met advertentieplatforms. Met verwerkers sluiten wij een
          verwerkersovereenkomst.
        </p>
        <p id="advertentieplatforms">
          <strong>Advertentieplatforms.</strong> Heeft u toestemming gegeven voor marketingcookies, dan
          bewaren wij bij uw offerteaanvraag de klik-id van de advertentie waarmee u op onze website kwam (van
          Google, Meta, TikTok of Snapchat) en melden wij uw aanvraag, een uitgebrachte offerte en een
          getekend contract (met de waarde in euro&apos;s) aan Meta, TikTok en Snapchat. Uw e-mailadres en
          telefoonnummer gaan daarbij alleen onherkenbaar gemaakt mee (als SHA-256-hash), met de klik-id, uw
          browser, de pagina van het formulier en een onherkenbaar gemaakt nummer van uw aanvraag; aan Meta
          ook de browser-id die de Meta-pixel in uw browser zette (het cookie _fbp) en het land van uw
          telefoonnummer (als hash). Met de melding van uw aanvraag gaat ook uw IP-adres mee, zoals onze
          server het zag toen u het formulier verstuurde. Dat bewaren wij alleen daarvoor, los van uw
          aanvraag; niemand van ons krijgt het te zien, en het wordt gewist zodra de melding is verzonden, en
          anders na 7 dagen. Kwam u via een advertentie van Google, dan haalt Google Ads bij ons een bestand
          op met alleen de klik-id van Google en het tijdstip van uw aanvraag, van een offerte en van een
          getekend contract (met onze commissie in euro&apos;s), zonder e-mailadres of telefoonnummer, en
          alleen tot 90 dagen na uw klik. De klik-id bewaren wij alleen bij die aanvraag en alleen hiervoor;
          hij wordt gewist met de aanvraag, op uw verzoek of na de bewaartermijn. Zonder marketingtoestemming
          bewaren wij geen klik-id en melden wij niets aan advertentieplatforms; wij weten dan hoogstens via
          welk kanaal en welke campagne u kwam.
        </p>
      </Article>

      <Article id="beveiliging" title="6. Beveiliging">
        <p>
          Wij nemen passende technische en organisatorische maatregelen, zoals versleutelde verbindingen
          (HTTPS), toegangsbeperking tot de administratie, veilige wachtwoorden en regelmatige updates, om uw
          gegevens te beschermen tegen verlies en onrechtmatig gebruik.
        </p>
      </Article>

      <Article id="rechten" title="7. Uw rechten">
        <p>U heeft het recht op:</p>
        <Bullets
          items={[
            "inzage in de gegevens die wij van u verwerken;",
            "correctie van onjuiste gegevens;",
            "verwijdering van gegevens, voor zover wij ze niet wettelijk moeten bewaren;",
            "beperking van en bezwaar tegen de verwerking;",
            "overdraagbaarheid van uw gegevens;",
            "het op ieder moment intrekken van uw toestemming.",
          ]}
        />
        <p>Wij beantwoorden uw verzoek binnen 1 maand.</p>
      </Article>

      <Article id="cookies" title="8. Cookies">
        <p>
          Onze website gebruikt noodzakelijke cookies en, met uw toestemming, analytische en marketingcookies.
          Lees meer in ons{" "}
          <Link to="/cookie-beleid" className="text-primary-strong underline">
            Cookie Beleid
          </Link>
          .
        </p>
      </Article>

      <Article id="wijzigingen" title="9. Wijzigingen">
        <p>
          Wij kunnen dit privacybeleid aanpassen. De meest actuele versie staat altijd op deze pagina, met de
          datum van de laatste wijziging bovenaan.
        </p>
      </Article>

      <Article id="contact-klachten" title="10. Contact en klachten">
        <p>
          Heeft u een vraag of een verzoek over uw gegevens? Neem contact met ons op via de gegevens
          hieronder. Bent u niet tevreden over hoe wij met uw gegevens omgaan, dan kunt u een klacht indienen
          bij de Autoriteit Persoonsgegevens (
          <a
            href="https://autoriteitpersoonsgegevens.nl"
            className="text-primary-strong underline"
            rel="noopener noreferrer"
          >
            autoriteitpersoonsgegevens.nl
          </a>
          ).
        </p>
        <Island name="company-address" />
      </Article>
    </LegalPage>
  );
}
