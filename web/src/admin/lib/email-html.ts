import DOMPurify from "dompurify";

// A received e-mail's HTML is never shown as it was sent: DOMPurify keeps text and layout and drops
// scripts, event handlers, forms, frames, styles (a style can load a remote image) and anything
// else that runs or loads; remote images are held back until staff choose "Afbeeldingen tonen"
// (they tell the sender the mail was read); links open apart, without access to the panel.

const FORBID_TAGS = [
  "style",
  "form",
  "input",
  "button",
  "select",
  "option",
  "textarea",
  "iframe",
  "frame",
  "frameset",
  "object",
  "embed",
  "link",
  "meta",
  "base",
  "svg",
  "math",
  "video",
  "audio",
  "source",
  "picture",
];
const FORBID_ATTR = ["style", "background", "srcset", "poster", "action", "formaction", "ping"];
const REMOTE = /^(https?:)?\/\//i;

export interface CleanEmailHtml {
  html: string;
  /** How many remote images were held back (0 when shown or none). */
  blockedImages: number;
}

/** The e-mail's HTML made safe to put in the panel; remote images only with `showImages`. */
export function cleanEmailHtml(dirty: string, showImages: boolean): CleanEmailHtml {
  let blockedImages = 0;
  const purify = DOMPurify(window);
  purify.addHook("afterSanitizeAttributes", (node) => {
    if (node.tagName === "A") {
      node.setAttribute("target", "_blank");
      node.setAttribute("rel", "noopener noreferrer");
    }
    if (node.tagName === "IMG") {
      const src = node.getAttribute("src") ?? "";
      if (REMOTE.test(src) && !showImages) {
        node.removeAttribute("src");
        node.setAttribute("data-held-back", "");
        node.setAttribute("alt", node.getAttribute("alt") || "[afbeelding]");
        blockedImages++;
      } else if (!REMOTE.test(src) && !src.startsWith("data:image/")) {
        // cid: parts and anything else: nothing to load.
        node.removeAttribute("src");
      }
    }
  });
  const html = purify.sanitize(dirty, {
    FORBID_TAGS,
    FORBID_ATTR,
    ALLOW_DATA_ATTR: false,
    ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|tel:|data:image\/(?:png|gif|jpe?g|webp);)/i,
  });
  return { html, blockedImages };
}
