// The rules page: only the light or dark choice needs a script.

import { applyTheme, themeControl } from "./theme.js";

applyTheme();
const place = document.querySelector("[data-region=theme]");
if (place) place.replaceChildren(themeControl());
