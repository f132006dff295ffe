import { describe, expect, it } from "vitest";
import { isWebUrl, textFragmentUrl } from "./text-fragment.js";

describe("textFragmentUrl", () => {
  it("links to the start of the quote's first sentence, URL-encoded", () => {
    expect(
      textFragmentUrl(
        "https://docs.example.org/lamps#top",
        "Brass lanterns need a well-trimmed wick, every evening & morning. A second sentence.",
      ),
    ).toBe(
      "https://docs.example.org/lamps#:~:text=Brass%20lanterns%20need%20a%20well%2Dtrimmed%20wick%2C%20every%20evening",
    );
  });

  it("gives the plain URL for a blank quote", () => {
    expect(textFragmentUrl("https://docs.example.org/lamps", "  ")).toBe("https://docs.example.org/lamps");
  });

  it("tells web ids from file paths", () => {
    expect(isWebUrl("https://a.example/x")).toBe(true);
    expect(isWebUrl("notes/https.md")).toBe(false);
  });
});
