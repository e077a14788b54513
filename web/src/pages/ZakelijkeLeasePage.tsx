import { Link } from "../lib/link";
import { CallToAction, InPageLink } from "../components/CallToAction";
import { Card, CardGrid, CheckList, Section, SectionHeading, PageHero } from "../components/ui";

const BENEFITS = [
  {
    title: "Vaste maandlasten",
    text: "U weet precies waar u aan toe bent. Geen verrassingen, wel een voorspelbare kostenpost.",
  },
  {
    title: "Kapitaal blijft vrij",
    text: "Geen grote investering ineens: uw werkkapitaal blijft beschikbaar voor uw onderneming.",
  },
  {
    title: "Fiscaal aantrekkelijk",
    text: "Leasetermijnen, rente en afschrijving zijn, afhankelijk van de leasevorm, zakelijk aftrekbaar.",
  },
  {
    title: "Altijd een passende auto",
    text: "Elk merk en model, nieuw of gebruikt, met een looptijd die past bij uw plannen.",
  },
  {
    title: "Ook met BKR-registratie",
    text: "Wij beoordelen uw hele situatie. In 85% van de gevallen lukt het, ook met een BKR-registratie.",
  },
  {
    title: "Snel geregeld",
    text: "Vaak binnen 24 uur een antwoord en een vaste contactpersoon die alles voor u regelt.",
  },
];

const SEGMENTS = [
  {
    title: "Starters en zzp'ers",
    text: "Al vanaf 12 maanden ingeschreven bij de KvK kunt u bij ons zakelijk leasen. Ideaal voor de eerste bedrijfsauto, zonder uw spaargeld aan te spreken.",
    points: [
      "Vanaf 12 maanden KvK-inschrijving",
      "Ook voor eenmanszaken en VOF's",
      "Persoonlijke begeleiding bij uw eerste lease",
    ],
  },
  {
    title: "MKB",
    text: "Voor ondernemingen met 5 tot 50 voertuigen combineren wij scherpe tarieven met persoonlijke service en één aanspreekpunt.",
    points: [
      "Wagenparken van 5 tot 50 voertuigen",
      "Mix van financiële en operationele lease",
      "Eén factuur en één contactpersoon",
    ],
  },
  {
    title: "Grote bedrijven",
    text: "Organisaties met 50 of meer voertuigen ondersteunen wij met een mobiliteitsbeleid, rapportages en professioneel fleet management.",
    points: [
      "Wagenparken vanaf 50 voertuigen",
      "Car policy en TCO-advies",
      "CO2-rapportage en fleet management",
    ],
  },
];

export default function ZakelijkeLeasePage() {
  return (
    <>
      <PageHero
        title="Zakelijke Lease"
        intro="Een auto voor uw onderneming zonder grote investering vooraf. Wij regelen zakelijke lease voor starters, zzp'ers, het MKB en grote bedrijven, ook als u een BKR-registratie heeft."
      >
        <InPageLink target="voordelen" label="Bekijk de Voordelen" />
        <InPageLink target="leasevormen" label="Vergelijk Leasevormen" />
      </PageHero>

      <Section id="voordelen" labelledBy="voordelen-titel">
        <SectionHeading
          id="voordelen-titel"
          title="De voordelen van zakelijk leasen"
          intro="Waarom steeds meer ondernemers kiezen voor lease in plaats van kopen."
        />
        <CardGrid items={BENEFITS} />
      </Section>

      <Section id="doelgroepen" labelledBy="doelgroepen-titel" className="bg-gray-50">
        <SectionHeading
          id="doelgroepen-titel"
          title="Voor elke onderneming"
          intro="Van de eerste bedrijfsauto tot een landelijk wagenpark: wij stemmen de lease af op de fase van uw bedrijf."
        />
        <div className="grid gap-6 lg:grid-cols-3">
          {SEGMENTS.map((segment) => (
            <Card key={segment.title}>
              <h3 className="text-xl font-semibold text-ink">{segment.title}</h3>
              <p className="mt-3 text-muted">{segment.text}</p>
              <CheckList className="mt-5" items={segment.points} />
            </Card>
          ))}
        </div>
      </Section>

      <Section id="leasevormen" labelledBy="leasevormen-titel">
        <SectionHeading
          id="leasevormen-titel"
          title="Twee leasevormen"
          intro="Wilt u de auto uiteindelijk bezitten of liever alles-in-één rijden? Wij adviseren welke vorm het beste past."
        />
        <div className="grid gap-6 md:grid-cols-2">
          <Card>
            <h3 className="text-xl font-semibold text-ink">Financiële lease</h3>
            <p className="mt-3 text-muted">
              U wordt economisch eigenaar van de auto en na de laatste termijn ook juridisch eigenaar. De auto
              staat op uw balans, u vraagt 21% btw in één keer terug en trekt rente en afschrijving af.
            </p>
            <CheckList
              className="mt-5"
              items={[
                "Auto wordt uw eigendom",
                "21% btw terugvragen",
                "Rente en afschrijving aftrekbaar",
                "Ook mogelijk met BKR",
              ]}
            />
            <Link
              to="/financiele-lease"
              className="mt-6 inline-block font-semibold text-primary-strong hover:underline"
            >
              Meer over financiële lease <span aria-hidden="true">→</span>
            </Link>
          </Card>
          <Card>
            <h3 className="text-xl font-semibold text-ink">Operationele lease</h3>
            <p className="mt-3 text-muted">
              U betaalt een vast bedrag per maand en de leasemaatschappij blijft eigenaar. Onderhoud,
              verzekering, banden, pechhulp en wegenbelasting zijn inbegrepen.
            </p>
            <CheckList
              className="mt-5"
              items={[
                "All-inclusive maandbedrag",
                "Geen restwaarderisico",
                "Geen beslag op uw balans",
                "Ideaal bij 20.000-30.000 km per jaar",
              ]}
            />
            <Link
              to="/operationele-lease"
              className="mt-6 inline-block font-semibold text-primary-strong hover:underline"
            >
              Meer over operationele lease <span aria-hidden="true">→</span>
            </Link>
          </Card>
        </div>
      </Section>

      <CallToAction
        title="Klaar voor uw nieuwe bedrijfsauto?"
        text="Vraag een vrijblijvende offerte aan of bereken eerst zelf uw maandlasten. U hoort binnen 24 uur van ons."
      />
    </>
  );
}
