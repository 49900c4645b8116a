import type { Map as LeafletMap } from 'leaflet'

/**
 * A tile layer's credit on `map`, given once one of its tiles is drawn (`drawn`) and taken back with the layer
 * (`dispose`): a layer whose tiles all fail (no network, a server that refuses) is not credited, and the attribution
 * names only what the map shows.
 */
export function tileCredit(map: LeafletMap, attribution: string): { drawn: () => void; dispose: () => void } {
  let credited = false
  return {
    drawn: () => {
      if (!credited) map.attributionControl?.addAttribution(attribution)
      credited = true
    },
    dispose: () => {
      if (credited) map.attributionControl?.removeAttribution(attribution)
      credited = false
    },
  }
}
