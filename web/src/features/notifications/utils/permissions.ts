export { isAdminLevel } from '@/api/roles';
