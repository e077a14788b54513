import { CallToAction, InPageLink } from "../components/CallToAction";
import { Card, CheckList, CrossIcon, DataTable, PageHero, Section, SectionHeading } from "../components/ui";

const INCLUDED = [
  "Gebruik van de auto tegen een vast maandbedrag",
  "Periodiek onderhoud en reparaties",
  "All-risk verzekering (eigen risico maximaal € 500 per schade)",
  "Zomer- en winterbanden, inclusief wissel en opslag",
  "Motorrijtuigenbelasting",
  "24/7 pechhulp in Nederland en Europa",
  "Vervangend vervoer bij onderhoud en schade",
  "Schadeafhandeling door de leasemaatschappij",
];

const COSTS: [string, string, string][] = [
  ["Afschrijving en rente", "Inbegrepen", "Grootste deel van het maandbedrag"],
  ["Onderhoud en reparaties", "Inbegrepen", "Volgens fabrieksvoorschrift"],
  ["Verzekering", "Inbegrepen", "All-risk, eigen risico max. € 500 per schade"],
  ["Banden", "Inbegrepen", "Zomer- en winterbanden"],
  ["Wegenbelasting", "Inbegrepen", "Motorrijtuigenbelasting"],
  ["Brandstof of laden", "Niet inbegrepen", "Optioneel via een tank- of laadpas"],
  ["Meerkilometers", "Niet inbegrepen", "Meestal € 0,10 tot € 0,25 per kilometer"],
];

export default function OperationeleLeasePage() {
  return (
    <>
      <PageHero
        title="Operationele Lease"
        intro="Zorgeloos zakelijk rijden voor één vast bedrag per maand. Onderhoud, verzekering, banden en pechhulp zijn inbegrepen; u hoeft alleen nog te tanken of te laden."
      >
        <InPageLink target="inbegrepen" label="Wat is Inbegrepen?" />
        <InPageLink target="geschikt" label="Past het bij Mij?" />
      </PageHero>

      <Section id="inbegrepen" labelledBy="inbegrepen-titel">
        <SectionHeading
          id="inbegrepen-titel"
          title="All-inclusive: dit zit erin"
          intro="Eén maandbedrag, één factuur en geen onverwachte kosten."
        />
        <Card className="mx-auto max-w-3xl">
          <CheckList items={INCLUDED} className="sm:columns-2 sm:gap-8 [&>li]:break-inside-avoid" />
        </Card>
      </Section>

      <Section id="kosten" labelledBy="kosten-titel" className="bg-gray-50">
        <SectionHeading
          id="kosten-titel"
          title="Kostenoverzicht"
          intro="Waar betaalt u voor bij operationele lease, en wat komt er eventueel bij?"
        />
        <DataTable
          caption="Kostenoverzicht operationele lease"
          head={["Kostenpost", "Status", "Toelichting"]}
          rows={COSTS}
        />
        <p className="mt-4 text-sm text-muted">
          Het maandbedrag hangt af van de auto, de looptijd en het aantal kilometers per jaar. De leasetermijn
          is als bedrijfskosten volledig aftrekbaar; de btw verrekent u per termijn.
        </p>
      </Section>

      <Section id="geschikt" labelledBy="geschikt-titel">
        <SectionHeading id="geschikt-titel" title="Voor wie is operationele lease geschikt?" />
        <div className="grid gap-6 md:grid-cols-2">
          <Card>
            <h3 className="text-xl font-semibold text-ink">Geschikt als u</h3>
            <CheckList
              className="mt-4"
              items={[
                "20.000 tot 30.000 kilometer per jaar rijdt",
                "vaste, voorspelbare autokosten wilt",
                "uw balans en werkkapitaal vrij wilt houden",
                "geen tijd wilt besteden aan onderhoud en schades",
                "elke paar jaar in een nieuwe auto wilt rijden",
              ]}
            />
          </Card>
          <Card>
            <h3 className="text-xl font-semibold text-ink">Minder geschikt als u</h3>
            <ul className="mt-4 space-y-3">
              {[
                "meer dan 40.000 kilometer per jaar rijdt",
                "de auto na afloop zelf wilt bezitten",
                "de auto ingrijpend wilt aanpassen of ombouwen",
                "een BKR-registratie heeft (kies dan voor financiële lease)",
              ].map((item) => (
                <li key={item} className="flex gap-3 text-ink">
                  <CrossIcon />
                  <span>{item}</span>
                </li>
              ))}
            </ul>
          </Card>
        </div>
      </Section>

      <CallToAction
        title="Operationele lease aanvragen?"
        text="Vertel ons welke auto u zoekt en hoeveel u rijdt. Wij sturen binnen 24 uur een all-inclusive voorstel."
      />
    </>
  );
}
