import { Link } from "../../lib/link";
import { Card, Section, SectionHeading } from "../../components/ui";

const PRODUCTS = [
  {
    title: "Financiële Lease",
    to: "/financiele-lease",
    text: "De auto komt op uw balans en wordt aan het einde van het contract uw eigendom. U vraagt 21% btw terug en trekt rente en afschrijving af van de winst.",
  },
  {
    title: "Operationele Lease",
    to: "/operationele-lease",
    text: "Eén vast bedrag per maand voor auto, onderhoud, verzekering, banden en pechhulp. U rijdt zorgeloos, wij regelen de rest.",
  },
  {
    title: "Fleet Management",
    to: "/fleet-management",
    text: "Voor organisaties met 25 of meer voertuigen: inkoop, beheer, rapportages en de CO2-rapportageplicht in één hand.",
  },
];

const PROMISES = [
  {
    title: "Persoonlijk advies",
    text: "Een adviseur die uw bedrijf kent en eerlijk vertelt welke leasevorm past.",
  },
  {
    title: "Snelle afhandeling",
    text: "Vaak binnen 24 uur een antwoord op uw aanvraag, zonder eindeloos papierwerk.",
  },
  {
    title: "Flexibele looptijden",
    text: "Contracten van 24 tot 72 maanden, afgestemd op uw planning en budget.",
  },
  {
    title: "Ruim aanbod",
    text: "Elk merk en model, nieuw of gebruikt: u kiest de auto, wij regelen de lease.",
  },
  {
    title: "Vaste contactpersoon",
    text: "Van offerte tot inlevering heeft u één aanspreekpunt dat uw dossier kent.",
  },
  {
    title: "Ook met BKR",
    text: "Een BKR-registratie is geen automatische afwijzing: wij kijken naar uw hele situatie.",
  },
];

export function ServicesSection() {
  return (
    <Section id="diensten" labelledBy="diensten-titel" className="bg-gray-50">
      <SectionHeading
        id="diensten-titel"
        title="Onze Diensten"
        intro="Of u nu één bedrijfsauto zoekt of een wagenpark van honderd voertuigen beheert: wij hebben de leasevorm die bij uw onderneming past."
      />
      <div className="grid gap-6 md:grid-cols-3">
        {PRODUCTS.map((product) => (
          <Card key={product.title} className="flex flex-col">
            <h3 className="text-xl font-semibold text-ink">{product.title}</h3>
            <p className="mt-3 flex-1 text-muted">{product.text}</p>
            <Link to={product.to} className="mt-5 font-semibold text-primary-strong hover:underline">
              Meer over {product.title.toLowerCase()} <span aria-hidden="true">→</span>
            </Link>
          </Card>
        ))}
      </div>
      <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {PROMISES.map((promise) => (
          <li key={promise.title} className="flex gap-4">
            <span aria-hidden="true" className="mt-1 h-3 w-3 shrink-0 rounded-full bg-accent" />
            <div>
              <h3 className="font-semibold text-ink">{promise.title}</h3>
              <p className="mt-1 text-muted">{promise.text}</p>
            </div>
          </li>
        ))}
      </ul>
      <p className="mt-10 text-center">
        <Link to="/zakelijke-lease" className="font-semibold text-primary-strong hover:underline">
          Alles over zakelijke lease <span aria-hidden="true">→</span>
        </Link>
      </p>
    </Section>
  );
}
