import { CallToAction, InPageLink } from "../components/CallToAction";
import {
  buttonClass,
  Card,
  CheckList,
  DataTable,
  PageHero,
  Section,
  SectionHeading,
  Stat,
} from "../components/ui";
import { onPlainClick, useSiteNavigation } from "../lib/navigation";

const COMPARISON: [string, string, string][] = [
  ["Eigendom", "Na de laatste termijn bent u eigenaar", "De leasemaatschappij blijft eigenaar"],
  ["Balans", "Auto staat op uw balans", "Buiten de balans"],
  ["BTW", "21% btw in één keer terugvragen", "Btw per maandtermijn verrekenen"],
  ["Fiscale aftrek", "Rente en afschrijving aftrekbaar", "Volledige leasetermijn aftrekbaar"],
  [
    "Onderhoud en verzekering",
    "Zelf regelen (optioneel mee te financieren)",
    "Inbegrepen in het maandbedrag",
  ],
  ["Kilometers", "Onbeperkt", "Vast aantal per jaar, meerkilometers betaalt u bij"],
  ["Looptijd", "24 tot 72 maanden", "24 tot 60 maanden"],
  ["Met BKR-registratie", "Vaak mogelijk", "Beperkt mogelijk"],
];

export default function FinancieleLeasePage() {
  const { goToSection } = useSiteNavigation();
  return (
    <>
      <PageHero
        title="Financiële Lease"
        intro="Rijd in uw eigen bedrijfsauto zonder de volledige aankoopprijs ineens te betalen. Met financiële lease wordt de auto uw eigendom en profiteert u van flinke fiscale voordelen."
      >
        <InPageLink target="voordelen" label="Bekijk de Voordelen" />
        <InPageLink target="vergelijking" label="Vergelijk met Operationele Lease" />
      </PageHero>

      <Section id="voordelen" labelledBy="voordelen-titel">
        <SectionHeading
          id="voordelen-titel"
          title="De fiscale voordelen op een rij"
          intro="Financiële lease is fiscaal vergelijkbaar met kopen op afbetaling: u bent economisch eigenaar vanaf dag één."
        />
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
          <Stat value="21%" label="BTW in één keer terug" />
          <Stat value="3-6%" label="Rente, volledig aftrekbaar" />
          <Stat value="20%" label="Afschrijving per jaar bij 5 jaar" />
        </div>
        <div className="mt-10 grid gap-6 md:grid-cols-2">
          <Card>
            <h3 className="text-xl font-semibold text-ink">Eigendom</h3>
            <p className="mt-3 text-muted">
              De auto staat vanaf de eerste dag op uw balans. Na de laatste termijn, eventueel met een
              slottermijn, wordt u ook juridisch eigenaar. Wat de auto dan nog waard is, komt volledig ten
              goede aan uw onderneming.
            </p>
          </Card>
          <Card>
            <h3 className="text-xl font-semibold text-ink">21% BTW terugvragen</h3>
            <p className="mt-3 text-muted">
              Omdat u economisch eigenaar bent, vraagt u de volledige 21% btw over de aanschafprijs in één
              keer terug in uw eerstvolgende btw-aangifte. Dat scheelt direct in uw liquiditeit.
            </p>
          </Card>
          <Card>
            <h3 className="text-xl font-semibold text-ink">Renteaftrek</h3>
            <p className="mt-3 text-muted">
              De rente over de lease, doorgaans tussen 3% en 6% per jaar, is een zakelijke kostenpost en
              volledig aftrekbaar van de winst. Zo verlaagt de lease uw belastbaar resultaat.
            </p>
          </Card>
          <Card>
            <h3 className="text-xl font-semibold text-ink">Afschrijving</h3>
            <p className="mt-3 text-muted">
              U schrijft de auto af over de gebruiksduur. Bij een contract van 5 jaar is dat 20% per jaar, ook
              aftrekbaar van de winst. Combineer dit eventueel met de investeringsaftrek.
            </p>
          </Card>
        </div>
      </Section>

      <Section id="bkr" labelledBy="bkr-titel" className="bg-gray-50">
        <div className="grid items-center gap-10 lg:grid-cols-2">
          <div>
            <h2 id="bkr-titel" className="text-3xl font-bold text-ink">
              Financiële lease met een BKR-registratie
            </h2>
            <p className="mt-4 text-lg text-muted">
              Een BKR-registratie betekent bij ons niet automatisch &lsquo;nee&rsquo;. Omdat de auto als
              onderpand dient, kijken onze financiers vooral naar de huidige cijfers en vooruitzichten van uw
              onderneming. Daardoor keuren wij 85% van de aanvragen met een BKR-registratie toch goed.
            </p>
          </div>
          <CheckList
            items={[
              "Eerlijke beoordeling van uw actuele situatie",
              "Een hogere aanbetaling vergroot de kans op goedkeuring",
              "Discreet: uw gegevens blijven vertrouwelijk",
              "Binnen 24 uur weet u waar u aan toe bent",
            ]}
          />
        </div>
      </Section>

      <Section id="vergelijking" labelledBy="vergelijking-titel">
        <SectionHeading
          id="vergelijking-titel"
          title="Financiële of operationele lease?"
          intro="De belangrijkste verschillen naast elkaar."
        />
        <DataTable
          caption="Vergelijking tussen financiële en operationele lease"
          head={["Kenmerk", "Financiële lease", "Operationele lease"]}
          rows={COMPARISON}
        />
        <div className="mt-10 text-center">
          <a
            href="/#calculator"
            onClick={onPlainClick(() => goToSection("calculator"))}
            className={buttonClass("primary")}
          >
            Bereken Uw Lease
          </a>
        </div>
      </Section>

      <CallToAction
        title="Financiële lease aanvragen?"
        text="Stuur ons de link van de auto die u wilt. U ontvangt binnen 24 uur een vrijblijvende offerte op maat."
      />
    </>
  );
}
