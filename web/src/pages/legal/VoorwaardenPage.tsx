import { Island } from "../../site/Island";
import { Article, Bullets, LegalPage } from "./LegalPage";

export default function VoorwaardenPage() {
  return (
    <LegalPage
      title="Algemene Voorwaarden"
      intro={
        <p>
          Deze algemene voorwaarden gelden voor alle diensten van{" "}
          <Island name="company-introduction" inline />. Lees ze zorgvuldig voordat u een aanvraag indient of
          een overeenkomst sluit.
        </p>
      }
    >
      <Article id="artikel-1" title="Artikel 1 - Definities">
        <p>In deze voorwaarden wordt verstaan onder:</p>
        <Bullets
          items={[
            <>
              <strong>Leasebemiddelaar:</strong> <Island name="company-name" inline />, die
              leaseovereenkomsten bemiddelt en adviseert.
            </>,
            <>
              <strong>Lessee:</strong> de natuurlijke persoon of rechtspersoon die handelt in de uitoefening
              van een beroep of bedrijf en een voertuig leaset.
            </>,
            <>
              <strong>Lessor:</strong> de financier of leasemaatschappij die het voertuig ter beschikking
              stelt.
            </>,
            <>
              <strong>Leaseovereenkomst:</strong> de overeenkomst van financiële of operationele lease tussen
              lessee en lessor.
            </>,
            <>
              <strong>Voertuig:</strong> de personenauto of bedrijfswagen waarop de leaseovereenkomst
              betrekking heeft.
            </>,
          ]}
        />
      </Article>

      <Article id="artikel-2" title="Artikel 2 - Toepasselijkheid">
        <p>
          Deze voorwaarden zijn van toepassing op iedere aanvraag, offerte, bemiddeling en overeenkomst tussen
          de leasebemiddelaar en de lessee. Afwijkingen gelden alleen als zij schriftelijk zijn
          overeengekomen. Algemene voorwaarden van de lessee zijn niet van toepassing. Voor de
          leaseovereenkomst zelf gelden daarnaast de voorwaarden van de lessor; bij strijdigheid gaan die
          voor.
        </p>
      </Article>

      <Article id="artikel-3" title="Artikel 3 - Aanbod en aanvaarding">
        <Bullets
          items={[
            "Een aanvraag via de website is vrijblijvend en verplicht u tot niets.",
            "Een offerte is 14 dagen geldig, tenzij daarin een andere termijn staat.",
            "Een offerte is gebaseerd op de gegevens die u verstrekt en op de uitkomst van een kredietbeoordeling, waaronder een BKR-toetsing.",
            "De overeenkomst komt tot stand zodra de lessee de leaseovereenkomst heeft ondertekend en de lessor deze heeft aanvaard.",
            "Berekeningen met de lease calculator zijn indicatief en vormen geen aanbod.",
          ]}
        />
      </Article>

      <Article id="artikel-4" title="Artikel 4 - Prijzen en betaling">
        <Bullets
          items={[
            "De leasetermijnen worden maandelijks vooraf betaald via automatische incasso op de 1e van de maand.",
            "De aanbetaling bedraagt doorgaans 10% tot 50% van de catalogusprijs van het voertuig.",
            "Een wijziging van het rentetarief wordt ten minste 1 maand van tevoren schriftelijk aangekondigd.",
            "De leaseprijs kan jaarlijks worden geïndexeerd, met een maximum van 5% per jaar.",
            "Bij niet-tijdige betaling is de lessee de wettelijke handelsrente en redelijke incassokosten verschuldigd.",
          ]}
        />
      </Article>

      <Article id="artikel-5" title="Artikel 5 - Gebruik van het voertuig">
        <p>
          De lessee gebruikt het voertuig als een goed huisvader, overeenkomstig de bestemming en de
          voorschriften van de fabrikant. Het voertuig mag niet worden onderverhuurd, voor wedstrijden
          gebruikt of zonder toestemming ingrijpend worden gewijzigd. Bij operationele lease geldt een
          afgesproken aantal kilometers per jaar; meerkilometers worden achteraf verrekend, meestal tegen €
          0,10 tot € 0,25 per kilometer.
        </p>
      </Article>

      <Article id="artikel-6" title="Artikel 6 - Verzekering">
        <p>
          Het voertuig is gedurende de gehele looptijd ten minste WA-verzekerd; bij operationele lease is een
          all-risk verzekering inbegrepen. Het eigen risico bedraagt maximaal € 500 per schadegeval. Schade
          meldt de lessee binnen 48 uur. Bij financiële lease sluit de lessee zelf een all-risk verzekering
          af, tenzij de verzekering is meegefinancierd.
        </p>
      </Article>

      <Article id="artikel-7" title="Artikel 7 - Eigendom en risico">
        <p>
          Bij operationele lease blijft de lessor eigenaar van het voertuig. Bij financiële lease wordt de
          lessee economisch eigenaar en gaat de juridische eigendom over na betaling van alle termijnen,
          inclusief een eventuele slottermijn. Het risico van verlies, diefstal en beschadiging ligt vanaf de
          aflevering bij de lessee, voor zover dit niet door een verzekering wordt gedekt.
        </p>
      </Article>

      <Article id="artikel-8" title="Artikel 8 - Beëindiging">
        <p>
          De leaseovereenkomst eindigt na afloop van de overeengekomen looptijd. Tussentijdse beëindiging is
          mogelijk tegen de vergoeding die in de leaseovereenkomst is bepaald. De lessor mag de overeenkomst
          met onmiddellijke ingang beëindigen bij faillissement, surseance van betaling of een
          betalingsachterstand van meer dan twee termijnen. Bij beëindiging levert de lessee het voertuig
          schoon en compleet in.
        </p>
      </Article>

      <Article id="artikel-9" title="Artikel 9 - Aansprakelijkheid">
        <p>
          De leasebemiddelaar is uitsluitend aansprakelijk voor directe schade die het gevolg is van een aan
          haar toe te rekenen tekortkoming, tot maximaal het bedrag dat haar
          beroepsaansprakelijkheidsverzekering in het betreffende geval uitkeert. Aansprakelijkheid voor
          indirecte schade, waaronder gevolgschade en gederfde winst, is uitgesloten, behalve bij opzet of
          bewuste roekeloosheid.
        </p>
      </Article>

      <Article id="artikel-10" title="Artikel 10 - Geschillen">
        <p>
          Op alle overeenkomsten is Nederlands recht van toepassing. Wij streven ernaar een klacht eerst samen
          op te lossen. Lukt dat niet, dan worden geschillen voorgelegd aan de bevoegde rechter in Amsterdam.
        </p>
      </Article>

      <Article id="artikel-11" title="Artikel 11 - Slotbepalingen">
        <p>
          Als een bepaling van deze voorwaarden nietig is of wordt vernietigd, blijven de overige bepalingen
          van kracht. Wij mogen deze voorwaarden wijzigen; de gewijzigde voorwaarden gelden vanaf de
          bekendmaking op deze website. Vragen over deze voorwaarden kunt u stellen via:
        </p>
        <Island name="company-address" />
      </Article>
    </LegalPage>
  );
}
