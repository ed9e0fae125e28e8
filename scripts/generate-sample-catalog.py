#!/usr/bin/env python3
"""Writes the sample catalog in catalog/ (format: catalog/README.md).

Deterministic: the same "now" gives the same files, so the output is committed and reviewed like
any edit. Times are US Eastern wall-clock times with the offset that applied on that day
(EST -05:00 / EDT -04:00), as an editor would type them.

    scripts/generate-sample-catalog.py [--now 2026-11-22]
"""
import argparse
import datetime
import hashlib
import json
import pathlib
from zoneinfo import ZoneInfo

EASTERN = ZoneInfo("America/New_York")
ROOT = pathlib.Path(__file__).resolve().parent.parent / "catalog"


def asset(publication, issue, name, low_mb, high_mb):
    """A plausible CDN file: size and digest derived from its path, so they are stable."""
    path = f"/content/{publication}/{issue}/{name}"
    digest = hashlib.sha256(path.encode()).hexdigest()
    span = (high_mb - low_mb) * 1_000_000
    return {"path": path, "bytes": low_mb * 1_000_000 + int(digest[:8], 16) % span, "sha256": digest}


def eastern(year, month, day, hour=0):
    return datetime.datetime(year, month, day, hour, tzinfo=EASTERN).isoformat()


def monthly_issues(now):
    """The 1st of each month, 00:00 US Eastern, January 2012 to now, plus next month scheduled."""
    issues = []
    year, month = 2012, 1
    while True:
        published = datetime.datetime(year, month, 1, tzinfo=EASTERN)
        issue_id = f"{year:04d}-{month:02d}"
        issue = {"id": issue_id, "title": published.strftime("%B %Y"), "publishedAt": published.isoformat(),
                 "assets": [asset("monthly", issue_id, "issue.pdf", 40, 120),
                            asset("monthly", issue_id, "cover.jpg", 1, 3)]}
        if issue_id == "2026-01":
            issue["free"] = True  # E15: the sample issue everyone may download
        issues.append(issue)
        if published > now:  # one scheduled issue (E16): the next month's
            break
        month += 1
        if month == 13:
            year, month = year + 1, 1
    return issues


def weekly_issues(now):
    """Every Thursday, 06:00 US Eastern, for the three years up to now."""
    start = now.date().replace(year=now.year - 3)
    day = start + datetime.timedelta(days=(3 - start.weekday()) % 7)
    issues = []
    while True:
        published = datetime.datetime(day.year, day.month, day.day, 6, tzinfo=EASTERN)
        if published > now:
            break
        issue_id = day.isoformat()
        issue = {"id": issue_id, "title": f"Thursday {day.day} {day.strftime('%B %Y')}",
                 "publishedAt": published.isoformat(),
                 "assets": [asset("weekly", issue_id, "issue.pdf", 8, 25)]}
        if issue_id == "2024-07-04":
            # E16: withdrawn after publication (a legal notice); listed to editors only.
            issue["retractedAt"] = "2024-07-05T14:30:00-04:00"
        issues.append(issue)
        day += datetime.timedelta(days=7)
    return issues


def subscription(product_id, grants, group, level, platform, discontinued=None):
    product = {"id": product_id, "kind": "autoRenewable", "grants": grants, "subscriptionGroup": group,
               "level": level, "platform": platform}
    if discontinued:
        product["discontinuedAt"] = discontinued
    return product


def single_issue(publication, issue_id):
    return {"id": f"{publication}.issue.{issue_id}", "kind": "issue", "grants": [publication],
            "issue": {"publicationId": publication, "issueId": issue_id}, "platform": "ios"}


def products():
    items = []
    for platform in ("ios", "macos"):
        # Apple's levels: 1 is the highest service level; annual sits above monthly (E7 upgrades).
        items.append(subscription(f"monthly.{platform}.annual", ["monthly"], "monthly", 1, platform))
        items.append(subscription(f"monthly.{platform}.monthly", ["monthly"], "monthly", 2, platform))
        items.append(subscription(f"weekly.{platform}.annual", ["weekly"], "weekly", 1, platform))
        items.append(subscription(f"weekly.{platform}.monthly", ["weekly"], "weekly", 2, platform))
    # E17: sold until 2019, still honoured for everyone who bought it.
    items.append(subscription("monthly.ios.monthly.2012", ["monthly"], "monthly", 2, "ios",
                              discontinued="2019-12-31T23:59:59-05:00"))
    # A bundle granting both publications, in its own group.
    items.append(subscription("bundle.ios.annual", ["monthly", "weekly"], "bundle", 1, "ios"))
    # E10: a non-renewing season pass.
    items.append({"id": "monthly.ios.3months", "kind": "nonRenewing", "grants": ["monthly"], "duration": "P3M",
                  "platform": "ios"})
    # E11: a free subscription (e.g. offered to print subscribers).
    items.append({"id": "weekly.ios.free", "kind": "free", "grants": ["weekly"], "platform": "ios"})
    # E14: single issues.
    items += [single_issue("monthly", "2012-02"), single_issue("monthly", "2020-04"),
              single_issue("weekly", "2026-11-19")]
    # E23: the same publications sold on Google Play (Play product ids; base plans are Google's).
    for publication in ("monthly", "weekly"):
        for plan, level in (("annual", 1), ("monthly", 2)):
            product = subscription(f"{publication}.play.{plan}", [publication], publication, level, "android")
            product.update({"store": "googlePlay", "storeProductId": f"{publication}.{plan}"})
            items.append(product)
    # E23: Stripe prices for web sales (Stripe price ids).
    for publication in ("monthly", "weekly"):
        for plan, level in (("annual", 1), ("monthly", 2)):
            product = subscription(f"{publication}.web.{plan}", [publication], publication, level, "web")
            product.update({"store": "stripe", "storeProductId": f"price_{publication}_{plan}"})
            items.append(product)
    web_bundle = subscription("bundle.web.annual", ["monthly", "weekly"], "bundle", 1, "web")
    web_bundle.update({"store": "stripe", "storeProductId": "price_bundle_annual"})
    web_issue = single_issue("monthly", "2020-04")
    web_issue.update({"id": "monthly.web.issue.2020-04", "platform": "web", "store": "stripe",
                      "storeProductId": "price_monthly_2020_04"})
    items += [web_bundle, web_issue]
    play_issue = single_issue("monthly", "2020-04")
    play_issue.update({"id": "monthly.play.issue.2020-04", "platform": "android", "store": "googlePlay",
                       "storeProductId": "monthly.issue.2020_04"})
    items.append(play_issue)
    return sorted(items, key=lambda p: p["id"])


def write(path, document):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--now", default="2026-11-22", help="the day the catalog is written for (YYYY-MM-DD)")
    args = parser.parse_args()
    now = datetime.datetime.fromisoformat(args.now).replace(hour=12, tzinfo=EASTERN)
    write(ROOT / "publications" / "monthly.json",
          {"id": "monthly", "title": "The Monthly Almanac", "issues": monthly_issues(now)})
    write(ROOT / "publications" / "weekly.json",
          {"id": "weekly", "title": "The Thursday Weekly", "issues": weekly_issues(now)})
    write(ROOT / "products.json", {"products": products()})


if __name__ == "__main__":
    main()
