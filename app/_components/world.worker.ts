// The world layer's outlines at 1:110 million (app/_components/world-rings.ts), a file of its own: the browser
// fetches it with the map, and caches it apart.
import topology from 'world-atlas/countries-110m.json'
import { postRings } from './world-rings'

postRings(topology)
