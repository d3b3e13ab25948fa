// Search over the site's Pagefind index. The pages never need this script;
// only the search page uses it, to show results for ?q=... A classic script (not a
// module), so that the page opened from disk loads without errors; Pagefind itself
// loads only when there is a query.
(() => {
const form = document.getElementById("search-form");
const input = document.getElementById("search-input");
const status = document.getElementById("search-status");
const list = document.getElementById("search-results");
const siteRoot = new URL("../", document.currentScript.src);

function excerptNodes(html) {
  // Pagefind marks hits with <mark>; build the nodes ourselves so no page text is parsed as HTML.
  const nodes = [];
  html.split(/(<mark>|<\/mark>)/).reduce((inMark, piece) => {
    if (piece === "<mark>") return true;
    if (piece === "</mark>") return false;
    const decoder = document.createElement("textarea");
    decoder.innerHTML = piece;  // RCDATA: entities are decoded, nothing is parsed as markup
    const text = decoder.value;
    if (inMark) {
      const mark = document.createElement("mark");
      mark.textContent = text;
      nodes.push(mark);
    } else {
      nodes.push(document.createTextNode(text));
    }
    return inMark;
  }, false);
  return nodes;
}

async function run(query) {
  list.replaceChildren();
  if (!query) {
    status.textContent = "";
    return;
  }
  status.textContent = "Searching…";
  // The index comes in parts (each indexed only when its pages change): load the first,
  // merge the others.
  const listing = await fetch(new URL("pagefind/parts.json", siteRoot));
  const parts = listing.ok ? (await listing.json()).parts : [];
  if (!parts.length) {
    status.textContent = "This site has no search index yet.";
    return;
  }
  const pagefind = await import(new URL(`${parts[0]}/pagefind.js`, siteRoot).href);
  await pagefind.options({ baseUrl: siteRoot.pathname });
  for (const part of parts.slice(1)) {
    await pagefind.mergeIndex(new URL(`${part}/`, siteRoot).href, { baseUrl: siteRoot.pathname });
  }
  const search = await pagefind.search(query);
  const results = await Promise.all(search.results.slice(0, 20).map((r) => r.data()));
  status.textContent = `${search.results.length} page${search.results.length === 1 ? "" : "s"} found for “${query}”.`;
  for (const result of results) {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = result.url;
    link.textContent = result.meta.title || result.url;
    const about = document.createElement("p");
    about.className = "search-about";
    about.textContent = [result.meta.pr, result.meta.status].filter(Boolean).join(" · ");
    const excerpt = document.createElement("p");
    excerpt.className = "search-excerpt";
    excerpt.replaceChildren(...excerptNodes(result.excerpt));
    item.append(link, about, excerpt);
    list.append(item);
  }
}

const query = new URLSearchParams(window.location.search).get("q") || "";
input.value = query;
form.hidden = false;
run(query);
})();
