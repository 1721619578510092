// mdbook-community: FAQ blocks. Opens the answer a URL fragment points to
// (also after a search result is followed), and every answer for printing.
(function () {
    "use strict";
    if (window.mdbookCommunityFaq) {
        return;
    }
    window.mdbookCommunityFaq = true;

    function openAll() {
        document.querySelectorAll("details.community-faq-entry").forEach(function (details) {
            details.open = true;
        });
    }

    function openTarget() {
        var id = window.location.hash.slice(1);
        if (!id) {
            return;
        }
        try {
            id = decodeURIComponent(id);
        } catch (e) {
            // keep the raw fragment
        }
        var target = document.getElementById(id);
        var opened = false;
        var details = target && target.closest("details");
        while (details) {
            if (!details.open) {
                details.open = true;
                opened = true;
            }
            details = details.parentElement && details.parentElement.closest("details");
        }
        if (opened) {
            target.scrollIntoView();
        }
    }

    function init() {
        if (/(^|\/)print\.html$/.test(window.location.pathname)) {
            openAll();
        }
        openTarget();
    }

    window.addEventListener("hashchange", openTarget);
    window.addEventListener("beforeprint", openAll);
    if (document.readyState === "loading") {
        document.addEventListener("DOMContentLoaded", init);
    } else {
        init();
    }
})();
