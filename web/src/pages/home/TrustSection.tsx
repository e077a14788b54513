import { Section, SectionHeading, Stat } from "../../components/ui";

const STATS = [
  { value: "2.000+", label: "Tevreden zakelijke klanten" },
  { value: "15+", label: "Jaar ervaring in lease" },
  { value: "85%", label: "Goedkeuring, ook met BKR-registratie" },
  { value: "24 uur", label: "Reactietijd op uw aanvraag" },
];

const CREDENTIALS = [
  {
    title: "Geregistreerd bij de AFM",
    text: "Wij staan als financieel dienstverlener ingeschreven in het register van de Autoriteit Financiële Markten.",
  },
  {
    title: "Ingeschreven bij de Kamer van Koophandel",
    text: "Een transparante, in Nederland gevestigde onderneming met een vaste vestiging en een KvK-inschrijving.",
  },
  {
    title: "Aansprakelijkheidsverzekering en garantiefonds",
    text: "Onze beroepsaansprakelijkheidsverzekering en aansluiting bij een garantiefonds beschermen uw belangen.",
  },
];

const BADGES = [
  {
    src: "/badges/klantwaardering.svg",
    caption: "Klantwaardering 4,8/5",
    alt: "Vijfpuntige ster met 4,8 van 5",
  },
  { src: "/badges/afm.svg", caption: "AFM-geregistreerd", alt: "Schild met vinkje en de letters AFM" },
  { src: "/badges/kvk.svg", caption: "KvK-ingeschreven", alt: "Gebouw met de letters KvK" },
  { src: "/badges/veilig.svg", caption: "Veilige SSL-verbinding", alt: "Gesloten hangslot" },
];

export function TrustSection() {
  return (
    <Section labelledBy="vertrouwen-titel">
      <SectionHeading
        id="vertrouwen-titel"
        title="Betrouwbaar en Ervaren"
        intro="Ruim vijftien jaar helpen wij ondernemers aan de juiste leaseauto. Onze cijfers en registraties spreken voor zich."
      />
      <div className="grid grid-cols-2 gap-4 lg:grid-cols-4">
        {STATS.map((stat) => (
          <Stat key={stat.label} {...stat} />
        ))}
      </div>
      <ul className="mt-12 grid gap-6 md:grid-cols-3">
        {CREDENTIALS.map((credential) => (
          <li key={credential.title} className="rounded-card border border-gray-200 p-6">
            <h3 className="flex items-center gap-2 font-semibold text-ink">
              <span aria-hidden="true" className="h-2.5 w-2.5 shrink-0 rounded-full bg-accent" />
              {credential.title}
            </h3>
            <p className="mt-2 text-muted">{credential.text}</p>
          </li>
        ))}
      </ul>
      <ul className="mt-12 grid grid-cols-2 gap-6 sm:grid-cols-4" aria-label="Keurmerken en registraties">
        {BADGES.map((badge) => (
          <li
            key={badge.caption}
            className="flex flex-col items-center rounded-card bg-gray-50 p-5 text-center"
          >
            <img src={badge.src} alt={badge.alt} width={72} height={72} loading="lazy" decoding="async" />
            <p className="mt-3 text-sm font-semibold text-ink">{badge.caption}</p>
          </li>
        ))}
      </ul>
    </Section>
  );
}
