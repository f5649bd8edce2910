// The search page: loads Pagefind's API and index (written by the build into pagefind/)
// only here, searches as the reader types, and lists title, date and excerpt. ?q=word
// searches at once, so a search can be linked and the form works as a plain GET.
(function () {
  "use strict";
  var script = document.currentScript;
  var input = document.getElementById("search-input");
  var list = document.getElementById("search-results");
  var status = document.getElementById("search-status");
  var pagefind = null;
  var latest = 0;

  // The index comes in shards (site_builder/search.py): pagefind/shards.json lists their
  // folders, the first ("") being the primary index beside the script.
  function load() {
    if (!pagefind) {
      var base = script.getAttribute("data-base");
      var root = script.getAttribute("data-index");
      pagefind = fetch(root + "shards.json", { cache: "no-cache" }).then(function (response) {
        if (!response.ok) throw new Error("no search index");
        return response.json();
      }).then(function (shards) {
        if (!shards.length) return null; // a site without posts
        return import(root + "pagefind.js").then(function (api) {
          // The index holds site-relative URLs; the base path (/ or /blog/) is added here.
          // No worker: the site ships none, and looking for it costs a failed request.
          return api.options({ baseUrl: base, noWorker: true }).then(function () {
            return Promise.all(shards.slice(1).map(function (folder) {
              return api.mergeIndex(root + folder, { baseUrl: base });
            }));
          }).then(function () { return api; });
        });
      });
    }
    return pagefind;
  }

  function item(data) {
    var li = document.createElement("li");
    li.className = "search-result";
    var title = document.createElement("a");
    title.href = data.url;
    title.className = "search-result-title";
    title.textContent = (data.meta && data.meta.title) || data.url;
    li.appendChild(title);
    if (data.meta && data.meta.date) {
      var date = document.createElement("p");
      date.className = "post-meta";
      date.textContent = data.meta.date;
      li.appendChild(date);
    }
    var excerpt = document.createElement("p");
    excerpt.className = "search-excerpt";
    excerpt.innerHTML = data.excerpt; // Pagefind escapes the text and adds only <mark>
    li.appendChild(excerpt);
    return li;
  }

  function run(query) {
    var ticket = ++latest;
    if (!query.trim()) {
      list.replaceChildren();
      status.textContent = "";
      return;
    }
    load().then(function (api) {
      return api ? api.debouncedSearch(query, {}, 150) : { results: [] };
    }).then(function (search) {
      if (search === null || ticket !== latest) return; // a newer query superseded this one
      return Promise.all(search.results.slice(0, 10).map(function (r) { return r.data(); })).then(function (results) {
        if (ticket !== latest) return;
        list.replaceChildren.apply(list, results.map(item));
        var n = search.results.length;
        status.textContent = n === 0 ? "No posts match." : n + (n === 1 ? " post matches." : " posts match.");
      });
    });
  }

  input.addEventListener("input", function () {
    var url = new URL(window.location.href);
    if (input.value) url.searchParams.set("q", input.value);
    else url.searchParams.delete("q");
    history.replaceState(null, "", url);
    run(input.value);
  });
  input.form.addEventListener("submit", function (event) {
    event.preventDefault();
    run(input.value);
  });
  var initial = new URLSearchParams(window.location.search).get("q");
  if (initial) {
    input.value = initial;
    run(initial);
  }
  input.focus();
})();
