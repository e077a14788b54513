import { useMutation } from "@tanstack/react-query";
import type { ConversionPlatform, ConversionTestResult } from "@lease/contracts";
import { useState } from "react";
import { userErrorMessage } from "../../api/client";
import { Button, inputClass } from "../../components/ui";
import { sendConversionTest } from "../api";
import { matchKeysText } from "../lib/match-keys";

/** Meta's and TikTok's test tools show a code the event must carry; Snapchat and Google validate without one. */
const CODE_HELP: Partial<Record<ConversionPlatform, string>> = {
  meta: "De code uit Gebeurtenissenbeheer › Testgebeurtenissen (zoals TEST12345).",
  tiktok: "De code uit Events Manager › Testgebeurtenissen (zoals TEST12345).",
};
const VALIDATE_HELP: Partial<Record<ConversionPlatform, string>> = {
  snapchat: "Snapchat controleert de testgebeurtenis zonder haar te tellen.",
  google: "Google controleert de testgebeurtenis zonder haar te tellen (alleen valideren).",
};

/**
 * "Testgebeurtenis versturen": one made-up lead's event to the platform's test tool (with Meta's
 * and TikTok's test code), and the platform's own answer under the button.
 */
export function ConversionTestButton({ platform, name }: { platform: ConversionPlatform; name: string }) {
  const [code, setCode] = useState("");
  const [answer, setAnswer] = useState<ConversionTestResult | { error: string } | null>(null);
  const needsCode = platform in CODE_HELP;
  const test = useMutation({
    mutationFn: () => sendConversionTest(platform, code.trim() ? { testEventCode: code.trim() } : {}),
    onSuccess: (result) => setAnswer(result),
    onError: (failure) =>
      setAnswer({ error: userErrorMessage(failure, `Kon geen testgebeurtenis naar ${name} versturen`) }),
  });
  const id = `conversies-${platform}-test`;
  return (
    <div className="mt-3 border-t border-gray-100 pt-3" data-testid={`${id}`}>
      {needsCode && (
        <>
          <label htmlFor={`${id}-code`} className="block text-sm font-medium text-gray-800">
            Testcode
          </label>
          <input
            id={`${id}-code`}
            className={`${inputClass("admin")} font-mono`}
            autoComplete="off"
            maxLength={64}
            aria-describedby={`${id}-uitleg`}
            value={code}
            onChange={(event) => setCode(event.target.value)}
          />
        </>
      )}
      <p id={`${id}-uitleg`} className="mt-1 text-xs text-gray-600">
        {CODE_HELP[platform] ?? VALIDATE_HELP[platform]}
      </p>
      <Button
        variant="secondary"
        className="mt-2"
        disabled={test.isPending || (needsCode && !code.trim())}
        onClick={() => test.mutate()}
      >
        {test.isPending ? "Versturen…" : "Testgebeurtenis versturen"}
      </Button>
      <div role="status" aria-live="polite" className="mt-2 text-sm">
        {answer &&
          ("error" in answer ? (
            <p className="font-medium text-red-700">{answer.error}</p>
          ) : (
            <p className={answer.ok ? "text-green-800" : "font-medium text-red-700"}>
              {answer.status !== null ? `${name} antwoordde ${answer.status}: ` : ""}
              {answer.message}
              {answer.matchKeys.length > 0 && (
                <span className="block text-gray-600">Gematcht met: {matchKeysText(answer.matchKeys)}</span>
              )}
            </p>
          ))}
      </div>
    </div>
  );
}
