import { CallToAction, InPageLink } from "../components/CallToAction";
import {
  buttonClass,
  Card,
  CardGrid,
  CheckList,
  PageHero,
  Section,
  SectionHeading,
  Stat,
} from "../components/ui";
import { onPlainClick, useSiteNavigation } from "../lib/navigation";

const VALUES = [
  { title: "Eerlijk", text: "Wij adviseren wat bij u past, ook als dat een kleinere of andere lease is." },
  { title: "Persoonlijk", text: "U heeft één vaste contactpersoon die uw onderneming en uw wensen kent." },
  { title: "Snel", text: "Binnen 24 uur een reactie en zo min mogelijk papierwerk." },
  {
    title: "Toegankelijk",
    text: "Lease moet ook mogelijk zijn voor starters en ondernemers met een BKR-registratie.",
  },
];

const TIMELINE = [
  { year: "2009", text: "Oprichting als leasebemiddelaar voor zzp'ers en kleine ondernemers." },
  { year: "2012", text: "Start van financiële lease voor ondernemers met een BKR-registratie." },
  { year: "2015", text: "De grens van 500 zakelijke klanten wordt gepasseerd." },
  { year: "2018", text: "Uitbreiding met operationele lease en de eerste fleet management-klanten." },
  { year: "2021", text: "Volledig digitaal aanvragen en een reactie binnen 24 uur als vaste belofte." },
  {
    year: "2024",
    text: "Meer dan 2.000 tevreden zakelijke klanten en ondersteuning bij de CO2-rapportageplicht.",
  },
];

const REASONS = [
  "Meer dan 15 jaar ervaring in zakelijke lease",
  "Ruim 2.000 tevreden zakelijke klanten, gemiddeld beoordeeld met een 4,8/5",
  "85% goedkeuring, ook bij een BKR-registratie",
  "Reactie binnen 24 uur en een vaste contactpersoon",
  "Onafhankelijk: wij vergelijken meerdere financiers voor u",
];

export default function OverOnsPage() {
  const { goToSection } = useSiteNavigation();
  return (
    <>
      <PageHero
        title="Over Ons"
        intro="Sinds 2009 helpen wij ondernemers aan de juiste bedrijfsauto. Persoonlijk, snel en eerlijk, ook wanneer een bank of leasemaatschappij al nee heeft gezegd."
      >
        <InPageLink target="missie" label="Onze Missie" />
        <InPageLink target="geschiedenis" label="Onze Geschiedenis" />
      </PageHero>

      <Section id="missie" labelledBy="missie-titel">
        <div className="grid items-center gap-10 lg:grid-cols-2">
          <div>
            <h2 id="missie-titel" className="text-3xl font-bold text-ink">
              Onze missie
            </h2>
            <p className="mt-4 text-lg text-muted">
              Elke ondernemer verdient een betrouwbare auto om zijn bedrijf te laten groeien. Wij maken
              zakelijk leasen eenvoudig, transparant en bereikbaar, voor de startende zzp&apos;er net zo goed
              als voor het bedrijf met een wagenpark van honderd voertuigen.
            </p>
          </div>
          <div className="grid grid-cols-2 gap-4">
            <Stat value="2.000+" label="Zakelijke klanten" />
            <Stat value="15+" label="Jaar ervaring" />
            <Stat value="85%" label="Goedkeuring met BKR" />
            <Stat value="4,8/5" label="Klantwaardering" />
          </div>
        </div>
      </Section>

      <Section id="waarden" labelledBy="waarden-titel" className="bg-gray-50">
        <SectionHeading id="waarden-titel" title="Onze kernwaarden" />
        <CardGrid items={VALUES} className="sm:grid-cols-2 lg:grid-cols-4" />
      </Section>

      <Section id="geschiedenis" labelledBy="geschiedenis-titel">
        <SectionHeading
          id="geschiedenis-titel"
          title="Onze geschiedenis"
          intro="Van eenmanszaak tot vertrouwd leasepartner."
        />
        <ol className="relative mx-auto max-w-3xl border-l-2 border-primary pl-8">
          {TIMELINE.map((item) => (
            <li key={item.year} className="relative mb-8 last:mb-0">
              <span
                aria-hidden="true"
                className="absolute top-1 -left-[2.45rem] h-4 w-4 rounded-full border-2 border-white bg-primary"
              />
              <p className="text-lg font-bold text-primary-strong">{item.year}</p>
              <p className="mt-1 text-ink">{item.text}</p>
            </li>
          ))}
        </ol>
      </Section>

      <Section id="waarom" labelledBy="waarom-titel" className="bg-gray-50">
        <div className="grid items-center gap-10 lg:grid-cols-2">
          <div>
            <h2 id="waarom-titel" className="text-3xl font-bold text-ink">
              Waarom ondernemers voor ons kiezen
            </h2>
            <CheckList className="mt-6" items={REASONS} />
          </div>
          <Card className="text-center">
            <h3 className="text-xl font-semibold text-ink">Kennismaken?</h3>
            <p className="mt-3 text-muted">
              Bel, mail of stuur een bericht. Wij maken graag kennis met u en uw onderneming.
            </p>
            <a
              href="/#contact"
              onClick={onPlainClick(() => goToSection("contact"))}
              className={buttonClass("primary", "mt-6")}
            >
              Neem Contact Op
            </a>
          </Card>
        </div>
      </Section>

      <CallToAction
        title="Samen uw volgende auto regelen?"
        text="Vraag vrijblijvend een offerte aan of bereken eerst zelf uw maandlasten."
      />
    </>
  );
}
