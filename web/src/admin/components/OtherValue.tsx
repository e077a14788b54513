// What tracking stores a visitor-made name (a UTM value, a referrer) as until it may be kept by
// name (services/tracking/README.md, "Which values are stored by name"), and how the panel
// explains it to a marketer wherever it shows.

export const OTHER_VALUE = "(overig)";

export const OTHER_VALUE_HELP =
  "(overig) zijn bronnen, campagnes en verwijzende websites die (nog) niet bij naam worden geteld. " +
  "Een nieuwe naam telt mee zodra bezoekers van een tweede adres hem gebruiken, of meteen zolang er " +
  "die dag ruimte is; zo kan verzonnen verkeer de cijfers niet vullen. Aanvragen houden de campagne " +
  "van hun eigen bezoek en tellen onder die naam mee zodra die wordt geteld.";

/** Whether a shown value is, or has a part that is, "(overig)" ("google / cpc / (overig)"). */
export function mentionsOther(text: string): boolean {
  return text.includes(OTHER_VALUE);
}

/** The explanation, once, below a table or list that shows "(overig)". */
export function OtherValueLegend() {
  return (
    <p className="mt-2 text-xs text-gray-600" data-testid="other-value-legend">
      {OTHER_VALUE_HELP}
    </p>
  );
}
