import { writesItsOwnCopy } from "./shared.mjs";

writesItsOwnCopy("b");
