import { CallToAction, InPageLink } from "../components/CallToAction";
import { Card, CardGrid, CheckList, PageHero, Section, SectionHeading, Stat } from "../components/ui";

const SERVICES = [
  {
    title: "Wagenparkanalyse",
    text: "Inzicht in de totale kosten per voertuig (TCO), gebruik en vervangingsmomenten.",
  },
  {
    title: "Inkoop en lease",
    text: "Scherpe voorwaarden door ons volume, bij alle grote merken en leasemaatschappijen.",
  },
  {
    title: "Car policy",
    text: "Een heldere autoregeling met budgetten, keuzevrijheid en duurzaamheidsdoelen.",
  },
  {
    title: "Schadebeheer",
    text: "Preventie, afhandeling en rijgedrag-trainingen die het aantal schades structureel verlagen.",
  },
  {
    title: "Brandstof en laden",
    text: "Tank- en laadpassen, thuisladen en een slimme overstap naar elektrisch rijden.",
  },
  { title: "Rapportages", text: "Maandelijkse dashboards over kosten, kilometers, schades en CO2-uitstoot." },
];

const TARGETS = [
  "Bedrijven met 25 of meer voertuigen",
  "Organisaties met 100+ medewerkers die onder de CO2-rapportageplicht vallen",
  "Bouw, installatie en service met een bestelwagenvloot",
  "Zorg-, onderwijs- en overheidsinstellingen",
  "Internationale bedrijven met een Nederlandse vestiging",
];

export default function FleetManagementPage() {
  return (
    <>
      <PageHero
        title="Fleet Management"
        intro="Professioneel wagenparkbeheer voor organisaties met 25 voertuigen of meer. Wij nemen u de zorg uit handen en verlagen tegelijk uw kosten en uw CO2-uitstoot."
      >
        <InPageLink target="diensten-fleet" label="Onze Diensten" />
        <InPageLink target="co2" label="CO2-rapportageplicht" />
      </PageHero>

      <Section id="diensten-fleet" labelledBy="diensten-fleet-titel">
        <SectionHeading
          id="diensten-fleet-titel"
          title="Wat wij voor uw wagenpark doen"
          intro="Eén partner voor alles rond uw voertuigen, van inkoop tot inlevering."
        />
        <CardGrid items={SERVICES} />
      </Section>

      <Section id="co2" labelledBy="co2-titel" className="bg-gray-50">
        <div className="grid gap-10 lg:grid-cols-2">
          <div>
            <h2 id="co2-titel" className="text-3xl font-bold text-ink">
              De CO2-rapportageplicht
            </h2>
            <p className="mt-4 text-lg text-muted">
              Sinds 1 juli 2024 moeten werkgevers met 100 of meer medewerkers jaarlijks rapporteren over de
              CO2-uitstoot van zakelijke mobiliteit en woon-werkverkeer. Dat vraagt om betrouwbare gegevens
              over elke gereden kilometer.
            </p>
          </div>
          <Card>
            <h3 className="text-xl font-semibold text-ink">Zo helpen wij u</h3>
            <CheckList
              className="mt-4"
              items={[
                "Automatisch verzamelen van kilometers en brandstof- of laaddata",
                "Een kant-en-klare jaarrapportage in het gevraagde formaat",
                "Advies over elektrificatie om de uitstoot te verlagen",
                "Eén dashboard voor uitstoot, kosten en gebruik",
              ]}
            />
          </Card>
        </div>
      </Section>

      <Section id="resultaten" labelledBy="resultaten-titel">
        <SectionHeading
          id="resultaten-titel"
          title="Resultaten bij onze klanten"
          intro="Gemiddelde uitkomsten na het eerste jaar fleet management."
        />
        <div className="grid grid-cols-2 gap-4 lg:grid-cols-4">
          <Stat value="15-25%" label="Lagere wagenparkkosten" />
          <Stat value="40%" label="Minder schades en incidenten" />
          <Stat value="30%" label="Minder CO2-uitstoot" />
          <Stat value="90%" label="Tevreden berijders" />
        </div>
      </Section>

      <Section id="doelgroepen" labelledBy="doelgroepen-titel" className="bg-gray-50">
        <SectionHeading id="doelgroepen-titel" title="Voor welke organisaties?" />
        <Card className="mx-auto max-w-3xl">
          <CheckList items={TARGETS} />
        </Card>
      </Section>

      <CallToAction
        title="Uw wagenpark laten doorlichten?"
        text="Vraag een vrijblijvende wagenparkanalyse aan. Wij laten u zien waar u kunt besparen."
      />
    </>
  );
}
