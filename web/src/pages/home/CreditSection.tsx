import { Link } from "../../lib/link";
import { buttonClass, CheckList, Section } from "../../components/ui";
import { onPlainClick, useSiteNavigation } from "../../lib/navigation";

export function CreditSection() {
  const { goToSection } = useSiteNavigation();
  return (
    <Section labelledBy="bkr-titel">
      <div className="grid items-center gap-12 lg:grid-cols-2">
        <div>
          <p className="font-semibold text-primary-strong">Financiële lease met BKR-registratie</p>
          <h2 id="bkr-titel" className="mt-2 text-3xl font-bold text-ink sm:text-4xl">
            Een BKR-registratie hoeft u niet tegen te houden
          </h2>
          <p className="mt-5 text-lg text-muted">
            Veel banken en leasemaatschappijen wijzen een aanvraag direct af zodra er een BKR-registratie is.
            Wij niet. Bij financiële lease is de auto zelf het onderpand; daardoor kijken onze financiers
            vooral naar de draagkracht en de vooruitzichten van uw onderneming. Zo realiseren wij in 85% van
            de aanvragen met een BKR-registratie toch een passende lease.
          </p>
          <CheckList
            className="mt-6"
            items={[
              "Beoordeling op de huidige cijfers van uw onderneming, niet alleen op het verleden",
              "Een hogere aanbetaling of kortere looptijd kan de goedkeuring vergroten",
              "Vertrouwelijke behandeling en een eerlijk advies, ook als het (nog) niet kan",
              <>
                21% btw terug, rente en afschrijving aftrekbaar:{" "}
                <Link to="/financiele-lease" className="text-primary-strong underline">
                  lees meer over financiële lease
                </Link>
              </>,
            ]}
          />
          <a
            href="#calculator"
            onClick={onPlainClick(() => goToSection("calculator"))}
            className={buttonClass("primary", "mt-8")}
          >
            Bereken Uw Lease
          </a>
        </div>
        <div className="rounded-card bg-gray-50 p-8 ring-1 ring-gray-200">
          <h3 className="text-xl font-semibold text-ink">Zo werkt een aanvraag met BKR</h3>
          <ol className="mt-6 space-y-5">
            {[
              ["Aanvraag", "U stuurt de link van de gewenste auto en uw contactgegevens."],
              ["Gesprek", "Uw vaste adviseur bespreekt uw situatie, inclusief de BKR-registratie."],
              ["Voorstel", "Binnen 24 uur ontvangt u een vrijblijvende offerte op maat."],
              ["Rijden", "Na akkoord regelen wij het contract, de verzekering en de aflevering."],
            ].map(([title, text], index) => (
              <li key={title} className="flex gap-4">
                <span className="grid h-8 w-8 shrink-0 place-items-center rounded-full bg-primary-strong font-bold text-white">
                  {index + 1}
                </span>
                <div>
                  <p className="font-semibold text-ink">{title}</p>
                  <p className="text-muted">{text}</p>
                </div>
              </li>
            ))}
          </ol>
        </div>
      </div>
    </Section>
  );
}
