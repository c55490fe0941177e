/**
 * Word lists for the test web. Every topic has its own vocabulary of real English words; no two lists share a
 * Porter stem (checked by test/unit/testweb.test.ts), so a page's topic is recoverable from its words the way a
 * real crawler's scorer would recover it. The first words of each vocabulary are the user's keywords: they are
 * drawn most often (Zipf), as a topic's head terms are on real pages.
 */

/** A topic the generator can build pages about. */
export interface TopicSpec {
  id: string;
  name: string;
  /** What a user would type into a search box. */
  keywords: string;
  /** Topic words, most characteristic first (the keywords' words lead). */
  vocabulary: string[];
}

export const TOPIC_CATALOG: readonly TopicSpec[] = [
  {
    id: 'astronomy',
    name: 'Astronomy',
    keywords: 'astronomy telescope stars',
    vocabulary: [
      'astronomy', 'telescope', 'stars', 'planet', 'galaxy', 'nebula', 'comet', 'orbit', 'eclipse', 'constellation',
      'observatory', 'eyepiece', 'meteor', 'asteroid', 'lunar', 'saturn', 'jupiter', 'mars', 'venus', 'cosmos',
      'supernova', 'quasar', 'pulsar', 'celestial', 'zenith', 'solstice', 'equinox', 'spectrum', 'redshift', 'parallax',
      'declination', 'astronomer', 'orion', 'andromeda', 'starlight', 'cosmic', 'stargazing', 'binoculars', 'refractor',
      'reflector', 'gravity', 'photon', 'astrophysics', 'solar', 'sunspot', 'aurora', 'exoplanet', 'hubble', 'interstellar',
      'mercury', 'neptune', 'uranus', 'pluto', 'kepler', 'galileo', 'nightsky', 'skywatcher', 'dobsonian', 'astrolabe',
      'planetarium',
    ],
  },
  {
    id: 'cooking',
    name: 'Cooking',
    keywords: 'cooking recipes kitchen',
    vocabulary: [
      'cooking', 'recipes', 'kitchen', 'oven', 'skillet', 'simmer', 'saute', 'braise', 'roast', 'garlic', 'onion',
      'butter', 'flour', 'dough', 'bake', 'whisk', 'broth', 'stew', 'sauce', 'spice', 'pepper', 'oregano', 'cinnamon',
      'vanilla', 'caramel', 'pastry', 'noodle', 'risotto', 'marinade', 'ladle', 'saucepan', 'spatula', 'chef', 'cuisine',
      'dessert', 'omelette', 'vinegar', 'olive', 'knead', 'yeast', 'batter', 'grill', 'fillet', 'seasoning', 'mince',
      'dumpling', 'soup', 'custard', 'tart', 'chocolate', 'cream', 'saffron', 'ginger', 'lemon', 'casserole', 'parmesan',
      'mayonnaise', 'souffle', 'brioche', 'ravioli',
    ],
  },
  {
    id: 'sailing',
    name: 'Sailing',
    keywords: 'sailing boat wind',
    vocabulary: [
      'sailing', 'boat', 'wind', 'yacht', 'hull', 'keel', 'mast', 'rudder', 'tiller', 'jib', 'mainsail', 'spinnaker',
      'harbor', 'mooring', 'regatta', 'starboard', 'stern', 'deck', 'sailor', 'knot', 'nautical', 'tack', 'gybe',
      'halyard', 'buoy', 'tide', 'dinghy', 'catamaran', 'schooner', 'marina', 'crew', 'skipper', 'compass', 'navigation',
      'seamanship', 'ballast', 'cleat', 'winch', 'bowline', 'capsize', 'leeward', 'windward', 'gale', 'squall',
      'lighthouse', 'voyage', 'ocean', 'coastline', 'anchorage', 'helmsman', 'sloop', 'ketch', 'cockpit', 'bilge',
      'foredeck', 'lifejacket', 'mariner', 'seaworthy', 'offshore', 'upwind',
    ],
  },
  {
    id: 'gardening',
    name: 'Gardening',
    keywords: 'gardening vegetables soil',
    vocabulary: [
      'gardening', 'vegetables', 'soil', 'compost', 'seedling', 'mulch', 'prune', 'shovel', 'trowel', 'fertilizer',
      'tomato', 'lettuce', 'carrot', 'cucumber', 'zucchini', 'bean', 'weeds', 'harvest', 'greenhouse', 'orchard',
      'blossom', 'bulb', 'tulip', 'rose', 'perennial', 'hedge', 'lawn', 'irrigation', 'watering', 'hose', 'root',
      'sprout', 'germinate', 'potting', 'rake', 'hoe', 'manure', 'aphid', 'earthworm', 'loam', 'shrub', 'vine',
      'trellis', 'gardener', 'allotment', 'herb', 'thyme', 'rosemary', 'marigold', 'daffodil', 'foliage', 'topsoil',
      'spinach', 'radish', 'pumpkin', 'strawberry', 'raspberry', 'wheelbarrow', 'hydrangea', 'geranium',
    ],
  },
  {
    id: 'chess',
    name: 'Chess',
    keywords: 'chess openings strategy',
    vocabulary: [
      'chess', 'openings', 'strategy', 'pawn', 'knight', 'bishop', 'rook', 'queen', 'king', 'checkmate', 'castling',
      'gambit', 'endgame', 'middlegame', 'grandmaster', 'tournament', 'sicilian', 'defence', 'fianchetto', 'stalemate',
      'tactic', 'sacrifice', 'fork', 'skewer', 'zugzwang', 'elo', 'blitz', 'opponent', 'chessboard', 'notation',
      'diagonal', 'promotion', 'capture', 'puzzle', 'kasparov', 'carlsen', 'fischer', 'queenside', 'kingside', 'passant',
      'variation', 'checkmated', 'rapid', 'gambits', 'dragon', 'najdorf', 'ruy', 'lopez', 'caro', 'kann', 'english',
      'french', 'catalan', 'grunfeld', 'nimzo', 'benoni', 'dutch', 'scandinavian', 'pirc', 'alekhine',
    ],
  },
  {
    id: 'volcanoes',
    name: 'Volcanoes',
    keywords: 'volcano eruption lava',
    vocabulary: [
      'volcano', 'eruption', 'lava', 'magma', 'crater', 'caldera', 'ash', 'pyroclastic', 'basalt', 'andesite', 'tephra',
      'pumice', 'obsidian', 'vent', 'fissure', 'geyser', 'fumarole', 'seismic', 'earthquake', 'tectonic', 'subduction',
      'mantle', 'volcanologist', 'stratovolcano', 'lahar', 'vesuvius', 'etna', 'krakatoa', 'pinatubo', 'kilauea',
      'sulfur', 'rift', 'hotspot', 'dome', 'plume', 'summit', 'molten', 'igneous', 'geology', 'geologist', 'dormant',
      'mudflow', 'ashfall', 'hawaii', 'iceland', 'tremor', 'magnitude', 'seismograph', 'lapilli', 'scoria', 'rhyolite',
      'strombolian', 'plinian', 'cinder', 'effusive', 'fumaroles', 'degassing', 'batholith', 'volcanism', 'lavas',
    ],
  },
  {
    id: 'beekeeping',
    name: 'Beekeeping',
    keywords: 'beekeeping honey bees',
    vocabulary: [
      'beekeeping', 'honey', 'bees', 'hive', 'apiary', 'colony', 'nectar', 'pollen', 'honeycomb', 'beeswax', 'swarm',
      'smoker', 'brood', 'larva', 'propolis', 'varroa', 'mite', 'apiarist', 'beekeeper', 'sting', 'veil', 'extractor',
      'nuc', 'clover', 'wildflower', 'pollinator', 'drone', 'beeline', 'queenless', 'supersedure', 'hivetool', 'langstroth',
      'skep', 'royal', 'jelly', 'bumblebee', 'honeybee', 'waggle', 'nosema', 'foulbrood', 'overwinter', 'feeder',
      'syrup', 'excluder', 'capped', 'uncapping', 'comb', 'apis', 'mellifera', 'buckfast', 'carniolan', 'italian',
      'beehive', 'meadow', 'lavender', 'heather', 'acacia', 'manuka', 'mead', 'candle',
    ],
  },
  {
    id: 'photography',
    name: 'Photography',
    keywords: 'photography camera lens',
    vocabulary: [
      'photography', 'camera', 'lens', 'shutter', 'aperture', 'exposure', 'tripod', 'focus', 'zoom', 'portrait',
      'flash', 'sensor', 'pixel', 'megapixel', 'darkroom', 'film', 'bokeh', 'iso', 'photographer', 'snapshot',
      'viewfinder', 'telephoto', 'macro', 'polarizer', 'monochrome', 'sepia', 'selfie', 'studio', 'photo',
      'silhouette', 'histogram', 'jpeg', 'dslr', 'mirrorless', 'autofocus', 'lightmeter', 'fisheye', 'panorama',
      'vignette', 'daguerreotype', 'kodak', 'nikon', 'canon', 'leica', 'polaroid', 'slr', 'rangefinder', 'timelapse',
      'longexposure', 'backlight', 'softbox', 'diffuser', 'gimbal', 'negatives', 'enlarger', 'emulsion', 'filmstock',
      'cropping', 'retouching', 'headshot',
    ],
  },
];

/**
 * Everyday words any page may use (news, shops, weather, civic life). Deliberately free of topic stems, so
 * general pages score near zero for every topic.
 */
export const GENERAL_WORDS: readonly string[] = [
  'people', 'time', 'year', 'day', 'week', 'city', 'town', 'country', 'government', 'report', 'news', 'company',
  'market', 'price', 'business', 'school', 'student', 'family', 'friend', 'house', 'street', 'road', 'car', 'train',
  'office', 'meeting', 'plan', 'project', 'event', 'weather', 'morning', 'evening', 'weekend', 'holiday', 'travel',
  'money', 'bank', 'job', 'team', 'sport', 'football', 'music', 'movie', 'book', 'story', 'history', 'art', 'museum',
  'health', 'doctor', 'hospital', 'community', 'council', 'election', 'policy', 'law', 'court', 'police', 'president',
  'minister', 'member', 'group', 'service', 'system', 'program', 'information', 'data', 'internet', 'website', 'email',
  'phone', 'computer', 'software', 'update', 'customer', 'product', 'shop', 'sale', 'discount', 'account', 'contact',
  'address', 'message', 'question', 'answer', 'problem', 'result', 'change', 'idea', 'experience', 'example', 'level',
  'number', 'area', 'local', 'national', 'international', 'public', 'social', 'political', 'economic', 'important',
  'different', 'early', 'late', 'recent', 'popular', 'free', 'simple', 'easy', 'available', 'official', 'announce',
  'discuss', 'include', 'provide', 'support', 'continue', 'consider', 'expect', 'decide', 'develop', 'create',
  'traffic', 'parking', 'ticket', 'concert', 'festival', 'library', 'university', 'teacher', 'parent', 'child',
  'neighbour', 'mayor', 'budget', 'tax', 'salary', 'employee', 'manager', 'director', 'interview', 'survey', 'schedule',
  'deadline', 'subscription', 'newsletter', 'privacy', 'terms', 'copyright', 'login', 'password', 'download',
  'video', 'podcast', 'comment', 'review', 'rating', 'delivery', 'payment', 'invoice', 'insurance', 'apartment',
  'rent', 'mortgage', 'furniture', 'clothing', 'fashion', 'shoes', 'jacket', 'bicycle', 'airport', 'flight',
  'hotel', 'restaurant', 'coffee', 'breakfast', 'lunch', 'dinner', 'yesterday', 'tomorrow', 'today', 'monday',
  'friday', 'january', 'october', 'annual', 'quarterly', 'growth', 'economy', 'industry', 'factory', 'worker',
  'union', 'strike', 'protest', 'statement', 'spokesperson', 'agency', 'department', 'committee', 'proposal',
  'vote', 'campaign', 'candidate', 'research', 'study', 'expert', 'opinion', 'editor', 'reader',
];

/** Words that glue sentences together (stop words: the evaluator drops them, readers expect them). */
export const FUNCTION_WORDS: readonly string[] = [
  'the', 'a', 'of', 'and', 'in', 'to', 'with', 'for', 'on', 'is', 'was', 'that', 'this', 'it', 'as', 'by', 'from',
  'are', 'at', 'their', 'our', 'which', 'also', 'very', 'more', 'some', 'many', 'most', 'into', 'about',
];

/** Anchors that say nothing about their target (so anchor-text strategies meet noise, as on the real web). */
export const GENERIC_ANCHORS: readonly string[] = [
  'click here', 'more', 'read more', 'here', 'this page', 'link', 'continue reading', 'see more', 'details', 'source',
];
