import { writesItsOwnCopy } from "./shared.mjs";

writesItsOwnCopy("a");
