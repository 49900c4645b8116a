// The world layer's outlines at 1:50 million (app/_components/world-rings.ts), a file of its own: the browser
// fetches it only when a view needs it, and caches it apart.
import topology from 'world-atlas/countries-50m.json'
import { postRings } from './world-rings'

postRings(topology)
