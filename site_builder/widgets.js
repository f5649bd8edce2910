// The widget loader (written by site_builder into static/js/widgets.js when the site has
// widgets/). A page with widget figures loads it as a module, after modulepreload hints
// for each widget's module. For every <figure data-widget="name" data-src="data.json">
// it imports ../widgets/<name>/widget.js (relative to this file, so any base path works),
// fetches the figure's JSON (relative to the page) and calls the module's default export
// with the figure element and the data. A widget that fails leaves its figure as the
// build rendered it (the no-JavaScript fallback) and does not stop the others.

const modules = new Map();

function load(name) {
  if (!modules.has(name)) {
    modules.set(name, import(new URL(`../widgets/${name}/widget.js`, import.meta.url).href));
  }
  return modules.get(name);
}

async function mount(figure) {
  const name = figure.dataset.widget;
  const src = figure.dataset.src;
  const [module, data] = await Promise.all([
    load(name),
    src
      ? fetch(new URL(src, document.baseURI)).then((response) => {
          if (!response.ok) throw new Error(`${response.status} ${src}`);
          return response.json();
        })
      : null,
  ]);
  await module.default(figure, data);
}

for (const figure of document.querySelectorAll("figure[data-widget]")) {
  mount(figure).catch((error) => console.warn(`widget ${figure.dataset.widget}:`, error));
}
