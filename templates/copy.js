// A "Copy" button on the code a reader pastes elsewhere: a review suggestion (ready for
// the code host) and an excerpt. An enhancement only: every page reads the same without it.
(() => {
  const blocks = document.querySelectorAll(".callout-suggestion pre, figure.excerpt");
  for (const block of blocks) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "copy-button";
    button.textContent = "Copy";
    button.addEventListener("click", async () => {
      const cells = block.querySelectorAll("td.diff-code");
      const text = cells.length
        ? Array.from(cells, (cell) => cell.textContent).join("\n")
        : block.textContent;
      try {
        await navigator.clipboard.writeText(text);
        button.textContent = "Copied";
      } catch {
        button.textContent = "Select and copy";  // no clipboard (a file:// page, say)
      }
      setTimeout(() => { button.textContent = "Copy"; }, 2000);
    });
    (block.querySelector("figcaption") || block).prepend(button);
  }
})();
