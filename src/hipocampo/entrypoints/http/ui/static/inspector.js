// The inspector's only script: small comforts on top of pages that work without it.
// Loaded from 'self' (the Content-Security-Policy forbids inline scripts), no dependencies.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  // A submitted form says it is working and cannot be sent twice by an impatient click.
  for (const form of document.querySelectorAll("form")) {
    form.addEventListener("submit", () => {
      for (const button of form.querySelectorAll("button[type=submit]")) {
        button.disabled = true;
        button.classList.add("busy");
      }
    });
  }
  // "Open all" / "Close all" for the fact histories of a user page.
  const histories = document.querySelectorAll("details.history");
  const facts = document.getElementById("facts");
  if (histories.length > 1 && facts) {
    const toggle = document.createElement("button");
    toggle.type = "button";
    toggle.className = "quiet small";
    toggle.textContent = "Open all histories";
    toggle.addEventListener("click", () => {
      const open = toggle.textContent.startsWith("Open");
      histories.forEach((d) => { d.open = open; });
      toggle.textContent = open ? "Close all histories" : "Open all histories";
    });
    facts.querySelector("h2").append(" ", toggle);
  }
  const key = document.getElementById("key");
  if (key) key.focus();
});
