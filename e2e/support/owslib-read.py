"""Reads every collection of an OGC API – Features service with OWSLib, as a Python GIS script would.

Usage: python3 owslib-read.py BASE_URL (the landing page, e.g. http://localhost:3000/ogc)
Prints JSON: {"api": the API definition, "conformsTo": [...], "collections": {id: [feature, ...]}}, every feature of
each collection, paged through with limit and offset until numberMatched is reached.
"""

import json
import sys

from owslib.ogcapi.features import Features

PAGE = 7  # small, so that every collection takes several pages

api = Features(sys.argv[1])
out = {"api": api.api(), "conformsTo": api.conformance()["conformsTo"], "collections": {}}
for collection_id in api.feature_collections():
    api.collection(collection_id)  # the collection's own document must be readable too
    features, offset = [], 0
    while True:
        page = api.collection_items(collection_id, limit=PAGE, offset=offset)
        features.extend(page["features"])
        offset += PAGE
        if page["numberReturned"] == 0 or offset >= page["numberMatched"]:
            break
    out["collections"][collection_id] = features
json.dump(out, sys.stdout)
